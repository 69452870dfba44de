/*
 * lib/Gen/gen_names.c - the names of the generator's vocabulary: size
 * scales, nest kinds, element types and feature bits, and the one-line
 * summary of a program built from them (pearl/gen.h). The printers
 * (gen_emit.c, gen_emit_c.c) write them into the programs' headers.
 */
#include <stdio.h>
#include <string.h>

#include "pearl/gen.h"
#include "pearl/options.h"

int pearl_gen_scale_parse(const char *name, enum pearl_gen_scale *scale)
{
	enum pearl_gen_scale s;

	for (s = pearl_gen_scale_small; s <= pearl_gen_scale_cache; ++s)
		if (name && !strcmp(name, pearl_gen_scale_name(s))) {
			*scale = s;
			return 0;
		}
	return -1;
}

int pearl_gen_scale_option(const char *value, void *dest)
{
	return pearl_gen_scale_parse(value, dest) < 0 ? pearl_option_bad_value
						      : pearl_option_ok;
}

const char *pearl_gen_scale_name(enum pearl_gen_scale scale)
{
	switch (scale) {
	case pearl_gen_scale_small: return "small";
	case pearl_gen_scale_train: return "train";
	case pearl_gen_scale_wide: return "wide";
	case pearl_gen_scale_cache: return "cache";
	}
	return "?";
}

/* Each family's name and the prefix of its programs' names. */
static const char *const family_names[pearl_gen_n_families] = {
	"any", "matmul", "gemm", "chain", "matvec", "sweep", "doitgen"
};
static const char *const family_prefixes[pearl_gen_n_families] = {
	"gen", "mm", "gemm", "chain", "mv", "sw", "dg"
};

int pearl_gen_family_parse(const char *name, enum pearl_gen_family *family)
{
	int f;

	for (f = 0; f < pearl_gen_n_families; ++f)
		if (name && !strcmp(name, family_names[f])) {
			*family = (enum pearl_gen_family)f;
			return 0;
		}
	return -1;
}

int pearl_gen_family_option(const char *value, void *dest)
{
	return pearl_gen_family_parse(value, dest) < 0
		   ? pearl_option_bad_value
		   : pearl_option_ok;
}

const char *pearl_gen_family_name(enum pearl_gen_family family)
{
	return (unsigned)family < pearl_gen_n_families ? family_names[family]
						       : "?";
}

char *pearl_gen_program_name(enum pearl_gen_family family, uint64_t seed,
			     char *buf, size_t size)
{
	snprintf(buf, size, "%s-%llu",
		 (unsigned)family < pearl_gen_n_families
			 ? family_prefixes[family]
			 : "gen",
		 (unsigned long long)seed);
	return buf;
}

static const char *const kind_names[pearl_gen_n_kinds] = {
	"elementwise", "stencil", "reduction", "contraction"
};
static const char *const type_names[pearl_gen_n_types] = {
	"f32", "f64", "i32"
};
static const char *const feature_names[pearl_gen_n_features][2] = {
	{ "multi-nest", "more than one loop nest in @kernel" },
	{ "chain", "a nest reads an array an earlier nest wrote" },
	{ "triangular", "a loop bound depends on an outer iterator" },
	{ "banded", "max/min bound maps around an outer iterator" },
	{ "imperfect", "a statement before or after an inner loop" },
	{ "time-loop", "an outer loop repeating a sweep" },
	{ "in-place", "a statement reads and writes the same array" },
	{ "if", "affine.if guards (with or without else)" },
	{ "apply", "an index computed by affine.apply" },
	{ "step", "a loop with step 2" },
	{ "transpose", "a read with permuted iterators" },
	{ "broadcast", "a read indexed by a subset of the iterators" },
	{ "math", "math.sqrt / math.absf" },
	{ "select", "cmp + select, max, min" },
	{ "conv", "convolution (i + r indices, constant-size filter)" },
	{ "batched", "batched matmul or doitgen (4-d contraction)" },
};

const char *pearl_gen_kind_name(enum pearl_gen_kind kind)
{
	return (unsigned)kind < pearl_gen_n_kinds ? kind_names[kind] : NULL;
}

const char *pearl_gen_type_name(enum pearl_gen_type type)
{
	return (unsigned)type < pearl_gen_n_types ? type_names[type] : NULL;
}

static int feature_index(enum pearl_gen_feature feature)
{
	int i;

	for (i = 0; i < pearl_gen_n_features; ++i)
		if ((unsigned)feature == 1u << i)
			return i;
	return -1;
}

const char *pearl_gen_feature_name(enum pearl_gen_feature feature)
{
	int i = feature_index(feature);

	return i < 0 ? NULL : feature_names[i][0];
}

const char *pearl_gen_feature_description(enum pearl_gen_feature feature)
{
	int i = feature_index(feature);

	return i < 0 ? NULL : feature_names[i][1];
}

/* Appends names of the set bits of `bits` joined by ',' ("none" if
 * empty). */
static size_t append_names(char *buf, size_t size, size_t len, unsigned bits,
			   const char *(*name)(unsigned))
{
	int i, first = 1;

	for (i = 0; i < 32; ++i) {
		const char *s;

		if (!(bits & (1u << i)) || !(s = name(i)))
			continue;
		len += snprintf(len < size ? buf + len : NULL,
				len < size ? size - len : 0, "%s%s",
				first ? "" : ",", s);
		first = 0;
	}
	if (first)
		len += snprintf(len < size ? buf + len : NULL,
				len < size ? size - len : 0, "none");
	return len;
}

static const char *kind_by_bit(unsigned i)
{
	return pearl_gen_kind_name((enum pearl_gen_kind)i);
}

static const char *type_by_bit(unsigned i)
{
	return pearl_gen_type_name((enum pearl_gen_type)i);
}

static const char *feature_by_bit(unsigned i)
{
	return i < pearl_gen_n_features ?
		pearl_gen_feature_name((enum pearl_gen_feature)(1u << i)) : NULL;
}

int pearl_gen_info_str(const struct pearl_gen_info *info, uint64_t seed,
		       char *buf, size_t size)
{
	char name[64];
	size_t len;

	if (!buf)
		size = 0;
	pearl_gen_program_name(info->family, seed, name, sizeof(name));
	len = snprintf(buf, size, "%s: nests=%d depth=%d kinds=", name,
		       info->n_nests, info->max_depth);
	len = append_names(buf, size, len, info->kinds, kind_by_bit);
	len += snprintf(len < size ? buf + len : NULL,
			len < size ? size - len : 0, " types=");
	len = append_names(buf, size, len, info->types, type_by_bit);
	len += snprintf(len < size ? buf + len : NULL,
			len < size ? size - len : 0, " features=");
	len = append_names(buf, size, len, info->features, feature_by_bit);
	len += snprintf(len < size ? buf + len : NULL,
			len < size ? size - len : 0,
			" ops=%llu est=%.3gms mem=%lluKB",
			(unsigned long long)info->ops, info->est_ms,
			(unsigned long long)((info->bytes + 1023) / 1024));
	return (int)len;
}
