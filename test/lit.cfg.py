# lit configuration of Pearl's test suite (after MLIR's standalone example).
import os

import lit.formats

config.name = "Pearl"
config.test_format = lit.formats.ShTest(True)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.pearl_obj_root, "test")
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "unit", "Inputs", "kernels"]

config.environment["PATH"] = os.pathsep.join(
    [config.pearl_bin_dir, config.llvm_tools_dir, config.environment.get("PATH", "")])
# Deterministic diagnostics ordering and no colour codes.
config.environment.pop("MLIR_ENABLE_DUMP", None)
# The suite runs its tests side by side, so the machine is contended by
# design: the environment's check of the CPU pressure (pearl/env.h,
# max_cpu_pressure) would measure every answer again and memoize none.
# It reads an empty file instead, which turns it off; Env/contention.test
# tests it with its hook.
config.environment["PEARL_ENV_PRESSURE_FILE"] = "/dev/null"
config.environment.pop("PEARL_ENV_TEST_PRESSURE", None)

mlir_opt = os.path.join(config.llvm_tools_dir, "mlir-opt")
if config.pearl_sanitize:
    # mlir-opt is not instrumented: load the sanitizer runtimes first so the
    # instrumented plugin can run inside it. LLVM's own allocations at exit
    # are not ours to report, so leak checking stays with pearl-opt and the
    # unit tests.
    mlir_opt = "env LD_PRELOAD=%s ASAN_OPTIONS=detect_leaks=0 %s" % (
        ":".join(config.pearl_sanitizer_runtimes), mlir_opt)

config.substitutions.append(("%pearl_plugin", config.pearl_plugin))
# The clang plugin (test/LLVM): %clang_pearl is clang with the plugin loaded
# (under the sanitizers, clang itself is not instrumented: preload the
# runtimes as for mlir-opt); %clang is plain clang, the reference.
clang = os.path.join(config.llvm_tools_dir, "clang")
clang_pearl = "%s -fpass-plugin=%s" % (clang, config.pearl_llvm_plugin)
if config.pearl_sanitize:
    clang_pearl = "env LD_PRELOAD=%s ASAN_OPTIONS=detect_leaks=0 %s" % (
        ":".join(config.pearl_sanitizer_runtimes), clang_pearl)
config.substitutions.append(("%pearl_llvm_plugin", config.pearl_llvm_plugin))
# A tool that runs clang with the plugin itself (pearl-fuzz --path c) needs
# the same runtimes preloaded, for the clang processes it starts.
config.substitutions.append(("%preload_sanitizers", "env LD_PRELOAD=%s ASAN_OPTIONS=detect_leaks=0" % (
    ":".join(config.pearl_sanitizer_runtimes)) if config.pearl_sanitize else ""))
config.substitutions.append(("%clang_pearl", clang_pearl))
config.substitutions.append(("%clang", clang))
config.substitutions.append(("%pearl_src", config.pearl_src_root))
config.substitutions.append(
    ("%mlir_opt_pearl", "%s --load-pass-plugin=%s" % (mlir_opt, config.pearl_plugin)))
config.substitutions.append(("%pearl_opt", os.path.join(config.pearl_bin_dir, "pearl-opt")))
config.substitutions.append(("%pearl_exec", os.path.join(config.pearl_bin_dir, "pearl-exec")))
config.substitutions.append(("%pearl_model", os.path.join(config.pearl_bin_dir, "pearl-model")))
config.substitutions.append(("%pearl_gen", os.path.join(config.pearl_bin_dir, "pearl-gen")))
config.substitutions.append(("%pearl_env", os.path.join(config.pearl_bin_dir, "pearl-env")))
config.substitutions.append(("%pearl_train", os.path.join(config.pearl_bin_dir, "pearl-train")))
config.substitutions.append(("%pearl_critic", os.path.join(config.pearl_bin_dir, "pearl-critic")))
config.substitutions.append(("%pearl_eval", os.path.join(config.pearl_bin_dir, "pearl-eval")))
config.substitutions.append(("%pearl_fuzz", os.path.join(config.pearl_bin_dir, "pearl-fuzz")))
config.substitutions.append(("%pearl_tune", os.path.join(config.pearl_bin_dir, "pearl-tune")))
# pearl-tune's campaigns over MPI ranks (test/Tune/mpi.test); as root, Open
# MPI must be told that is meant. Open MPI's own allocations at exit are
# not ours to report: under the sanitizers the ranks do not check leaks.
if config.pearl_mpiexec:
    config.available_features.add("mpi")
    mpirun = "%s --allow-run-as-root --oversubscribe" % config.pearl_mpiexec
    if config.pearl_sanitize:
        mpirun = "env ASAN_OPTIONS=detect_leaks=0 %s -x ASAN_OPTIONS" % mpirun
    config.substitutions.append(("%mpirun", mpirun))
config.substitutions.append(("%python", "/usr/bin/python3"))
config.substitutions.append(
    ("%schedules_quick", "--quick" if config.pearl_sanitize else ""))
