/* Inputs at the edges of what the plugin models, one function each: a
 * loop with no iteration at run time, six nested loops (the policy's
 * graph describes five), 120 statements in one loop, and a statement with
 * fourteen reads (the graph describes ten). Trip counts are parameters
 * so that clang unrolls none of the loops (Polly needs a few seconds for
 * the six-deep parametric nest, with or without Pearl). */
#include "checksum.h"

#define N 64
static double A[N][N], B[N][N], X[N + 16], Y[N + 16];
static double D6[2][3][2][3][2][3];
static double S0[N + 8];
static double S1[N + 8];
static double S2[N + 8];
static double S3[N + 8];
static double S4[N + 8];
static double S5[N + 8];
static double S6[N + 8];
static double S7[N + 8];
static double S8[N + 8];
static double S9[N + 8];
static double S10[N + 8];
static double S11[N + 8];
static double S12[N + 8];
static double S13[N + 8];
static double S14[N + 8];
static double S15[N + 8];
static double S16[N + 8];
static double S17[N + 8];
static double S18[N + 8];
static double S19[N + 8];
static double S20[N + 8];
static double S21[N + 8];
static double S22[N + 8];
static double S23[N + 8];
static double S24[N + 8];
static double S25[N + 8];
static double S26[N + 8];
static double S27[N + 8];
static double S28[N + 8];
static double S29[N + 8];
static double S30[N + 8];
static double S31[N + 8];
static double S32[N + 8];
static double S33[N + 8];
static double S34[N + 8];
static double S35[N + 8];
static double S36[N + 8];
static double S37[N + 8];
static double S38[N + 8];
static double S39[N + 8];
static double S40[N + 8];
static double S41[N + 8];
static double S42[N + 8];
static double S43[N + 8];
static double S44[N + 8];
static double S45[N + 8];
static double S46[N + 8];
static double S47[N + 8];
static double S48[N + 8];
static double S49[N + 8];
static double S50[N + 8];
static double S51[N + 8];
static double S52[N + 8];
static double S53[N + 8];
static double S54[N + 8];
static double S55[N + 8];
static double S56[N + 8];
static double S57[N + 8];
static double S58[N + 8];
static double S59[N + 8];
static double S60[N + 8];
static double S61[N + 8];
static double S62[N + 8];
static double S63[N + 8];
static double S64[N + 8];
static double S65[N + 8];
static double S66[N + 8];
static double S67[N + 8];
static double S68[N + 8];
static double S69[N + 8];
static double S70[N + 8];
static double S71[N + 8];
static double S72[N + 8];
static double S73[N + 8];
static double S74[N + 8];
static double S75[N + 8];
static double S76[N + 8];
static double S77[N + 8];
static double S78[N + 8];
static double S79[N + 8];
static double S80[N + 8];
static double S81[N + 8];
static double S82[N + 8];
static double S83[N + 8];
static double S84[N + 8];
static double S85[N + 8];
static double S86[N + 8];
static double S87[N + 8];
static double S88[N + 8];
static double S89[N + 8];
static double S90[N + 8];
static double S91[N + 8];
static double S92[N + 8];
static double S93[N + 8];
static double S94[N + 8];
static double S95[N + 8];
static double S96[N + 8];
static double S97[N + 8];
static double S98[N + 8];
static double S99[N + 8];
static double S100[N + 8];
static double S101[N + 8];
static double S102[N + 8];
static double S103[N + 8];
static double S104[N + 8];
static double S105[N + 8];
static double S106[N + 8];
static double S107[N + 8];
static double S108[N + 8];
static double S109[N + 8];
static double S110[N + 8];
static double S111[N + 8];
static double S112[N + 8];
static double S113[N + 8];
static double S114[N + 8];
static double S115[N + 8];
static double S116[N + 8];
static double S117[N + 8];
static double S118[N + 8];
static double S119[N + 8];

__attribute__((noinline)) void zero_trip(int lo, int hi)
{
	for (int i = lo; i < hi; i++)
		for (int j = 0; j < N; j++)
			A[i][j] = B[j][i] + 1.0;
}

__attribute__((noinline)) void deep(int n)
{
	for (int a = 0; a < n; a++)
	 for (int b = 0; b < n + 1; b++)
	  for (int c = 0; c < n; c++)
	   for (int d = 0; d < n + 1; d++)
	    for (int e = 0; e < n; e++)
	     for (int f = 0; f < n + 1; f++)
		D6[a][b][c][d][e][f] += a + b * c - d * e + f;
}

__attribute__((noinline)) void many_statements(int n)
{
	for (int i = 0; i < n; i++) {
		S0[i] = S1[i] * 0.5 + X[i + 0];
		S1[i] = S2[i] * 0.5 + X[i + 1];
		S2[i] = S3[i] * 0.5 + X[i + 2];
		S3[i] = S4[i] * 0.5 + X[i + 3];
		S4[i] = S5[i] * 0.5 + X[i + 4];
		S5[i] = S6[i] * 0.5 + X[i + 5];
		S6[i] = S7[i] * 0.5 + X[i + 6];
		S7[i] = S8[i] * 0.5 + X[i + 0];
		S8[i] = S9[i] * 0.5 + X[i + 1];
		S9[i] = S10[i] * 0.5 + X[i + 2];
		S10[i] = S11[i] * 0.5 + X[i + 3];
		S11[i] = S12[i] * 0.5 + X[i + 4];
		S12[i] = S13[i] * 0.5 + X[i + 5];
		S13[i] = S14[i] * 0.5 + X[i + 6];
		S14[i] = S15[i] * 0.5 + X[i + 0];
		S15[i] = S16[i] * 0.5 + X[i + 1];
		S16[i] = S17[i] * 0.5 + X[i + 2];
		S17[i] = S18[i] * 0.5 + X[i + 3];
		S18[i] = S19[i] * 0.5 + X[i + 4];
		S19[i] = S20[i] * 0.5 + X[i + 5];
		S20[i] = S21[i] * 0.5 + X[i + 6];
		S21[i] = S22[i] * 0.5 + X[i + 0];
		S22[i] = S23[i] * 0.5 + X[i + 1];
		S23[i] = S24[i] * 0.5 + X[i + 2];
		S24[i] = S25[i] * 0.5 + X[i + 3];
		S25[i] = S26[i] * 0.5 + X[i + 4];
		S26[i] = S27[i] * 0.5 + X[i + 5];
		S27[i] = S28[i] * 0.5 + X[i + 6];
		S28[i] = S29[i] * 0.5 + X[i + 0];
		S29[i] = S30[i] * 0.5 + X[i + 1];
		S30[i] = S31[i] * 0.5 + X[i + 2];
		S31[i] = S32[i] * 0.5 + X[i + 3];
		S32[i] = S33[i] * 0.5 + X[i + 4];
		S33[i] = S34[i] * 0.5 + X[i + 5];
		S34[i] = S35[i] * 0.5 + X[i + 6];
		S35[i] = S36[i] * 0.5 + X[i + 0];
		S36[i] = S37[i] * 0.5 + X[i + 1];
		S37[i] = S38[i] * 0.5 + X[i + 2];
		S38[i] = S39[i] * 0.5 + X[i + 3];
		S39[i] = S40[i] * 0.5 + X[i + 4];
		S40[i] = S41[i] * 0.5 + X[i + 5];
		S41[i] = S42[i] * 0.5 + X[i + 6];
		S42[i] = S43[i] * 0.5 + X[i + 0];
		S43[i] = S44[i] * 0.5 + X[i + 1];
		S44[i] = S45[i] * 0.5 + X[i + 2];
		S45[i] = S46[i] * 0.5 + X[i + 3];
		S46[i] = S47[i] * 0.5 + X[i + 4];
		S47[i] = S48[i] * 0.5 + X[i + 5];
		S48[i] = S49[i] * 0.5 + X[i + 6];
		S49[i] = S50[i] * 0.5 + X[i + 0];
		S50[i] = S51[i] * 0.5 + X[i + 1];
		S51[i] = S52[i] * 0.5 + X[i + 2];
		S52[i] = S53[i] * 0.5 + X[i + 3];
		S53[i] = S54[i] * 0.5 + X[i + 4];
		S54[i] = S55[i] * 0.5 + X[i + 5];
		S55[i] = S56[i] * 0.5 + X[i + 6];
		S56[i] = S57[i] * 0.5 + X[i + 0];
		S57[i] = S58[i] * 0.5 + X[i + 1];
		S58[i] = S59[i] * 0.5 + X[i + 2];
		S59[i] = S60[i] * 0.5 + X[i + 3];
		S60[i] = S61[i] * 0.5 + X[i + 4];
		S61[i] = S62[i] * 0.5 + X[i + 5];
		S62[i] = S63[i] * 0.5 + X[i + 6];
		S63[i] = S64[i] * 0.5 + X[i + 0];
		S64[i] = S65[i] * 0.5 + X[i + 1];
		S65[i] = S66[i] * 0.5 + X[i + 2];
		S66[i] = S67[i] * 0.5 + X[i + 3];
		S67[i] = S68[i] * 0.5 + X[i + 4];
		S68[i] = S69[i] * 0.5 + X[i + 5];
		S69[i] = S70[i] * 0.5 + X[i + 6];
		S70[i] = S71[i] * 0.5 + X[i + 0];
		S71[i] = S72[i] * 0.5 + X[i + 1];
		S72[i] = S73[i] * 0.5 + X[i + 2];
		S73[i] = S74[i] * 0.5 + X[i + 3];
		S74[i] = S75[i] * 0.5 + X[i + 4];
		S75[i] = S76[i] * 0.5 + X[i + 5];
		S76[i] = S77[i] * 0.5 + X[i + 6];
		S77[i] = S78[i] * 0.5 + X[i + 0];
		S78[i] = S79[i] * 0.5 + X[i + 1];
		S79[i] = S80[i] * 0.5 + X[i + 2];
		S80[i] = S81[i] * 0.5 + X[i + 3];
		S81[i] = S82[i] * 0.5 + X[i + 4];
		S82[i] = S83[i] * 0.5 + X[i + 5];
		S83[i] = S84[i] * 0.5 + X[i + 6];
		S84[i] = S85[i] * 0.5 + X[i + 0];
		S85[i] = S86[i] * 0.5 + X[i + 1];
		S86[i] = S87[i] * 0.5 + X[i + 2];
		S87[i] = S88[i] * 0.5 + X[i + 3];
		S88[i] = S89[i] * 0.5 + X[i + 4];
		S89[i] = S90[i] * 0.5 + X[i + 5];
		S90[i] = S91[i] * 0.5 + X[i + 6];
		S91[i] = S92[i] * 0.5 + X[i + 0];
		S92[i] = S93[i] * 0.5 + X[i + 1];
		S93[i] = S94[i] * 0.5 + X[i + 2];
		S94[i] = S95[i] * 0.5 + X[i + 3];
		S95[i] = S96[i] * 0.5 + X[i + 4];
		S96[i] = S97[i] * 0.5 + X[i + 5];
		S97[i] = S98[i] * 0.5 + X[i + 6];
		S98[i] = S99[i] * 0.5 + X[i + 0];
		S99[i] = S100[i] * 0.5 + X[i + 1];
		S100[i] = S101[i] * 0.5 + X[i + 2];
		S101[i] = S102[i] * 0.5 + X[i + 3];
		S102[i] = S103[i] * 0.5 + X[i + 4];
		S103[i] = S104[i] * 0.5 + X[i + 5];
		S104[i] = S105[i] * 0.5 + X[i + 6];
		S105[i] = S106[i] * 0.5 + X[i + 0];
		S106[i] = S107[i] * 0.5 + X[i + 1];
		S107[i] = S108[i] * 0.5 + X[i + 2];
		S108[i] = S109[i] * 0.5 + X[i + 3];
		S109[i] = S110[i] * 0.5 + X[i + 4];
		S110[i] = S111[i] * 0.5 + X[i + 5];
		S111[i] = S112[i] * 0.5 + X[i + 6];
		S112[i] = S113[i] * 0.5 + X[i + 0];
		S113[i] = S114[i] * 0.5 + X[i + 1];
		S114[i] = S115[i] * 0.5 + X[i + 2];
		S115[i] = S116[i] * 0.5 + X[i + 3];
		S116[i] = S117[i] * 0.5 + X[i + 4];
		S117[i] = S118[i] * 0.5 + X[i + 5];
		S118[i] = S119[i] * 0.5 + X[i + 6];
		S119[i] = S0[i] * 0.5 + X[i + 0];
	}
}

__attribute__((noinline)) void many_reads(int n)
{
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
			A[i][j] = X[i + 0] * Y[j + 0] +
				  X[i + 1] * Y[j + 1] +
				  X[i + 2] * Y[j + 2] +
				  X[i + 3] * Y[j + 3] +
				  X[i + 4] * Y[j + 4] +
				  X[i + 5] * Y[j + 5] +
				  X[i + 6] * Y[j + 6] +
				  X[i + 7] * Y[j + 7] +
				  X[i + 8] * Y[j + 8] +
				  X[i + 9] * Y[j + 9] +
				  X[i + 10] * Y[j + 10] +
				  X[i + 11] * Y[j + 11] +
				  X[i + 12] * Y[j + 12] +
				  X[i + 13] * Y[j + 13];
}

int main(void)
{
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++)
			B[i][j] = (double)((i * 3 + j) % 7);
	for (int i = 0; i < N + 16; i++) {
		X[i] = (double)(i % 5) / 5;
		Y[i] = (double)(i % 3) / 3;
	}
	for (int i = 0; i < N + 8; i++)
		S0[i] = S119[i] = i % 4;
	zero_trip(10, 5);
	deep(2);
	many_statements(N);
	many_reads(N);
	print_checksum("A", A, sizeof(A));
	print_checksum("D6", D6, sizeof(D6));
	print_checksum("S0", S0, sizeof(S0));
	print_checksum("S119", S119, sizeof(S119));
	return 0;
}
