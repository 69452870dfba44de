/* Ahead-of-time compilation of a lowered module with clang, as
 * pearl-bench and users compile Pearl's output (exec_native.h). */
#include "exec_native.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <llvm-c/Core.h>
#include <mlir-c/Target/LLVMIR.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* Words of cflags at most, and characters of one command's stderr kept
 * for the message of a failed compilation. */
#define MAX_CFLAGS 32
#define MAX_CLANG_ARGS (MAX_CFLAGS + 16)

struct exec_native {
	void *dl;		/* owned: dlopen handle */
};

/* Adds `_mlir_NAME(void **args)`, the packed form the ExecutionEngine
 * gives every function, for function `fn` of `mod`: argument i is loaded
 * from *args[i]; a result is stored to *args[n]. */
static void add_packed_wrapper(LLVMModuleRef mod, LLVMValueRef fn)
{
	LLVMContextRef ctx = LLVMGetModuleContext(mod);
	LLVMTypeRef fn_type = LLVMGlobalGetValueType(fn);
	LLVMTypeRef ptr = LLVMPointerTypeInContext(ctx, 0);
	LLVMTypeRef i64 = LLVMInt64TypeInContext(ctx);
	LLVMTypeRef ret = LLVMGetReturnType(fn_type);
	unsigned n = LLVMCountParamTypes(fn_type), i;
	LLVMTypeRef *params = malloc((n ? n : 1) * sizeof(*params));
	LLVMValueRef *vals = malloc((n ? n : 1) * sizeof(*vals));
	LLVMTypeRef wrapper_type = LLVMFunctionType(
	    LLVMVoidTypeInContext(ctx), &ptr, 1, 0);
	size_t len;
	const char *name = LLVMGetValueName2(fn, &len);
	char *wname = malloc(len + 7);
	LLVMValueRef wrapper, args, call;
	LLVMBuilderRef b;

	if (!params || !vals || !wname)
		goto out;
	snprintf(wname, len + 7, "_mlir_%.*s", (int)len, name);
	LLVMGetParamTypes(fn_type, params);
	wrapper = LLVMAddFunction(mod, wname, wrapper_type);
	args = LLVMGetParam(wrapper, 0);
	b = LLVMCreateBuilderInContext(ctx);
	LLVMPositionBuilderAtEnd(
	    b, LLVMAppendBasicBlockInContext(ctx, wrapper, "entry"));
	for (i = 0; i < n; ++i) {
		LLVMValueRef idx = LLVMConstInt(i64, i, 0);
		LLVMValueRef slot = LLVMBuildGEP2(b, ptr, args, &idx, 1, "");
		LLVMValueRef at = LLVMBuildLoad2(b, ptr, slot, "");

		vals[i] = LLVMBuildLoad2(b, params[i], at, "");
	}
	call = LLVMBuildCall2(b, fn_type, fn, vals, n, "");
	if (LLVMGetTypeKind(ret) != LLVMVoidTypeKind) {
		LLVMValueRef idx = LLVMConstInt(i64, n, 0);
		LLVMValueRef slot = LLVMBuildGEP2(b, ptr, args, &idx, 1, "");

		LLVMBuildStore(b, call, LLVMBuildLoad2(b, ptr, slot, ""));
	}
	LLVMBuildRetVoid(b);
	LLVMDisposeBuilder(b);
out:
	free(params);
	free(vals);
	free(wname);
}

/* Wraps every C interface (`_mlir_ciface_*`) the lowering made. */
static void add_packed_wrappers(LLVMModuleRef mod)
{
	LLVMValueRef fn;

	for (fn = LLVMGetFirstFunction(mod); fn; fn = LLVMGetNextFunction(fn)) {
		size_t len;
		const char *name = LLVMGetValueName2(fn, &len);

		if (!LLVMIsDeclaration(fn) && len > 13 &&
		    !strncmp(name, "_mlir_ciface_", 13))
			add_packed_wrapper(mod, fn);
	}
}

/* The first lines of file `path` into msg (size bytes), for a message. */
static void read_head(const char *path, char *msg, size_t size)
{
	FILE *f = fopen(path, "r");
	size_t n = 0;

	msg[0] = '\0';
	if (!f)
		return;
	n = fread(msg, 1, size - 1, f);
	msg[n] = '\0';
	fclose(f);
	while (n > 0 && (msg[n - 1] == '\n' || msg[n - 1] == ' '))
		msg[--n] = '\0';
}

/* Runs argv (NULL-terminated) with its stderr to `log`; 0 if it exits 0,
 * else -1 with the reason in err. */
static int run_command(char *const argv[], const char *log,
		       struct exec_err *err)
{
	posix_spawn_file_actions_t actions;
	char out[512];
	pid_t pid;
	int status, rc;

	posix_spawn_file_actions_init(&actions);
	posix_spawn_file_actions_addopen(&actions, 2, log,
					 O_WRONLY | O_CREAT | O_TRUNC, 0600);
	posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY,
					 0);
	rc = posix_spawn(&pid, argv[0], &actions, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&actions);
	if (rc != 0)
		return exec_fail(err, "cannot run %s: %s", argv[0],
				 strerror(rc));
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return exec_fail(err, "waiting for %s: %s", argv[0],
					 strerror(errno));
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	read_head(log, out, sizeof(out));
	return exec_fail(err, "%s failed: %s", argv[0],
			 out[0] ? out : "no message");
}

/* Splits `cflags` (spaces between words) into words[] (the copy `buf`
 * is cut in place); returns the number of words, or -1 if too many. */
static int split_words(char *buf, char *words[], int max)
{
	int n = 0;
	char *w;

	for (w = strtok(buf, " \t"); w; w = strtok(NULL, " \t")) {
		if (n == max)
			return -1;
		words[n++] = w;
	}
	return n;
}

/* Compiles `ll` into the shared object `so` with clang. */
static int compile_shared(const char *clang, const char *cflags,
			  const char *ll, const char *so, const char *log,
			  struct exec_err *err)
{
	char *argv[MAX_CLANG_ARGS];
	char *flags = strdup(cflags ? cflags : "");
	int n = 0, k, rc;

	if (!flags)
		return exec_fail(err, "out of memory");
	argv[n++] = (char *)clang;
	argv[n++] = "-O3";
	argv[n++] = "-fopenmp";
	k = split_words(flags, argv + n, MAX_CFLAGS);
	if (k < 0) {
		free(flags);
		return exec_fail(err, "more than %d words of compiler flags",
				 MAX_CFLAGS);
	}
	n += k;
	argv[n++] = "-shared";
	argv[n++] = "-fPIC";
	argv[n++] = "-Wno-override-module";
	argv[n++] = (char *)ll;
	argv[n++] = PEARL_EXEC_RUNNER_UTILS;
	argv[n++] = "-Wl,-rpath," PEARL_EXEC_LIBDIR;
	argv[n++] = "-o";
	argv[n++] = (char *)so;
	argv[n] = NULL;
	rc = run_command(argv, log, err);
	free(flags);
	return rc;
}

/* Writes the LLVM IR of `module` (lowered) with the packed wrappers to
 * `ll`. */
static int write_llvm_ir(MlirOperation module, const char *ll,
			 struct exec_err *err)
{
	LLVMContextRef llctx = LLVMContextCreate();
	LLVMModuleRef llmod = mlirTranslateModuleToLLVMIR(module, llctx);
	char *msg = NULL;
	int rc = 0;

	if (!llmod) {
		LLVMContextDispose(llctx);
		return exec_fail(err, "translation to LLVM IR failed");
	}
	add_packed_wrappers(llmod);
	if (LLVMPrintModuleToFile(llmod, ll, &msg))
		rc = exec_fail(err, "cannot write %s: %s", ll,
			       msg ? msg : "?");
	LLVMDisposeMessage(msg);
	LLVMDisposeModule(llmod);
	LLVMContextDispose(llctx);
	return rc;
}

struct exec_native *exec_native_build(MlirOperation module, const char *clang,
				      const char *cflags, struct exec_err *err)
{
	const char *tmp = getenv("TMPDIR");
	char dir[4096], ll[4200], so[4200], log[4200];
	struct exec_native *n = NULL;
	void *dl = NULL;

	snprintf(dir, sizeof(dir), "%s/pearl-native-XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		exec_fail(err, "cannot make a directory %s: %s", dir,
			  strerror(errno));
		return NULL;
	}
	snprintf(ll, sizeof(ll), "%s/module.ll", dir);
	snprintf(so, sizeof(so), "%s/module.so", dir);
	snprintf(log, sizeof(log), "%s/clang.log", dir);
	if (write_llvm_ir(module, ll, err) == 0 &&
	    compile_shared(clang, cflags, ll, so, log, err) == 0) {
		dl = dlopen(so, RTLD_NOW | RTLD_LOCAL);
		if (!dl)
			exec_fail(err, "cannot load the compiled module: %s",
				  dlerror());
	}
	unlink(ll);
	unlink(so);
	unlink(log);
	rmdir(dir);
	if (!dl)
		return NULL;
	n = malloc(sizeof(*n));
	if (!n) {
		dlclose(dl);
		exec_fail(err, "out of memory");
		return NULL;
	}
	n->dl = dl;
	return n;
}

void *exec_native_lookup_packed(struct exec_native *n, const char *name)
{
	char sym[1024];

	snprintf(sym, sizeof(sym), "_mlir_%s", name);
	return dlsym(n->dl, sym);
}

void *exec_native_lookup(struct exec_native *n, const char *name)
{
	return dlsym(n->dl, name);
}

void exec_native_free(struct exec_native *n)
{
	if (!n)
		return;
	dlclose(n->dl);
	free(n);
}
