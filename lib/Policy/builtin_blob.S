/*
 * The compiled-in policy: the bytes of models/pearl-policy.bin, included
 * by the assembler. CMake passes the file's path as PEARL_POLICY_BLOB (a
 * string) and rebuilds this object when the file changes.
 * pearl_policy_load_builtin (policy_io.c) reads the bytes between the two
 * symbols. Both symbols are hidden: they never leave the plugin.
 */
#ifndef PEARL_POLICY_BLOB
#error "PEARL_POLICY_BLOB must name the weight blob to embed"
#endif

	.section .rodata.pearl_policy_blob, "a"
	.balign 16
	.globl pearl_policy_builtin_blob
	.hidden pearl_policy_builtin_blob
	.type pearl_policy_builtin_blob, @object
pearl_policy_builtin_blob:
	.incbin PEARL_POLICY_BLOB
	.globl pearl_policy_builtin_blob_end
	.hidden pearl_policy_builtin_blob_end
pearl_policy_builtin_blob_end:
	.byte 0
	.size pearl_policy_builtin_blob, . - pearl_policy_builtin_blob

	/* No executable stack. */
	.section .note.GNU-stack, "", @progbits
