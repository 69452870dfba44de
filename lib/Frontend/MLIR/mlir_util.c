#include "mlir_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pearl/str.h"

static MlirStringRef op_name(MlirOperation op)
{
	return mlirIdentifierStr(mlirOperationGetName(op));
}

int pearl_mlir_op_is(MlirOperation op, const char *name)
{
	MlirStringRef s = op_name(op);
	return s.length == strlen(name) && memcmp(s.data, name, s.length) == 0;
}

int pearl_mlir_op_in_dialect(MlirOperation op, const char *prefix)
{
	MlirStringRef s = op_name(op);
	size_t n = strlen(prefix);
	return s.length > n && memcmp(s.data, prefix, n) == 0;
}

void pearl_mlir_op_name(MlirOperation op, char *buf, size_t size)
{
	MlirStringRef s = op_name(op);
	size_t n = s.length < size - 1 ? s.length : size - 1;

	memcpy(buf, s.data, n);
	buf[n] = '\0';
}

MlirAttribute pearl_mlir_attr(MlirOperation op, const char *name)
{
	return mlirOperationGetAttributeByName(op,
					       mlirStringRefCreateFromCString(name));
}

static void append_ref(MlirStringRef ref, void *user)
{
	pearl_str *s = user;
	char *tmp = malloc(ref.length + 1);

	if (!tmp) {
		s->failed = 1;
		return;
	}
	memcpy(tmp, ref.data, ref.length);
	tmp[ref.length] = '\0';
	pearl_str_append(s, tmp);
	free(tmp);
}

char *pearl_mlir_type_str(MlirType type)
{
	pearl_str s = PEARL_STR_INIT;

	mlirTypePrint(type, append_ref, &s);
	return pearl_str_take(&s);
}

char *pearl_mlir_value_str(MlirValue value, MlirAsmState state)
{
	pearl_str s = PEARL_STR_INIT;

	mlirValuePrintAsOperand(value, state, append_ref, &s);
	return pearl_str_take(&s);
}

MlirBlock pearl_mlir_body(MlirOperation op, int region)
{
	return mlirRegionGetFirstBlock(mlirOperationGetRegion(op, region));
}

MlirOperation pearl_mlir_region_ancestor(const pearl_mlir_region *region,
					 MlirOperation op)
{
	MlirBlock block = mlirOperationGetBlock(region->first);

	for (; !mlirOperationIsNull(op);
	     op = mlirOperationGetParentOperation(op)) {
		MlirOperation it;

		if (!mlirBlockEqual(mlirOperationGetBlock(op), block))
			continue;
		for (it = region->first; !mlirOperationIsNull(it);
		     it = mlirOperationGetNextInBlock(it)) {
			if (mlirOperationEqual(it, op))
				return op;
			if (mlirOperationEqual(it, region->last))
				break;
		}
		break;
	}
	return (MlirOperation){ NULL };
}

int pearl_mlir_op_any(MlirOperation op,
		      int (*pred)(MlirOperation op, void *user), void *user)
{
	intptr_t r;

	if (pred(op, user))
		return 1;
	for (r = 0; r < mlirOperationGetNumRegions(op); ++r) {
		MlirBlock b = pearl_mlir_body(op, (int)r);
		MlirOperation it;

		for (it = mlirBlockIsNull(b) ? (MlirOperation){ NULL }
					     : mlirBlockGetFirstOperation(b);
		     !mlirOperationIsNull(it); it = mlirOperationGetNextInBlock(it))
			if (pearl_mlir_op_any(it, pred, user))
				return 1;
	}
	return 0;
}

int pearl_mlir_first_failure(int *failed, char *msg, size_t size,
			     const char *fmt, va_list ap)
{
	if (*failed)
		return 0;
	*failed = 1;
	vsnprintf(msg, size, fmt, ap);
	return 1;
}
