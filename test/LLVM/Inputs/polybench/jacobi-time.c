/* The classic Jacobi stencil that crashed the clang plugin: a time loop
 * holding a 4-point update of V from U and a copy of V back into U. The
 * kernel is stencil() exactly as reported (external, so clang may also
 * inline it into main); the sizes are overridable so the tests can run it
 * small. */
#include "checksum.h"

#ifndef T
#define T 60
#endif
#ifndef M
#define M 1500
#endif

static double U[M][M], V[M][M];

__attribute__((noinline)) static void init(void)
{
	for (int i = 0; i < M; i++)
		for (int j = 0; j < M; j++)
			U[i][j] = (double)((i * 7 + j * 13) % 64) / 16;
}

void stencil(void) {
  for (int t = 0; t < T; t++) {
    for (int i = 1; i < M - 1; i++)
      for (int j = 1; j < M - 1; j++)
        V[i][j] = 0.25 * (U[i - 1][j] + U[i + 1][j] + U[i][j - 1] + U[i][j + 1]);
    for (int i = 1; i < M - 1; i++)
      for (int j = 1; j < M - 1; j++)
        U[i][j] = V[i][j];
  }
}

int main(void)
{
	init();
	TIMED(stencil());
	print_checksum("U", U, sizeof(U));
	print_checksum("V", V, sizeof(V));
	return 0;
}
