"""Checks a pearl-train run from its curve.csv (argv[1]).

  check_training.py CURVE --improves MARGIN [LOG]
                                              the mean reward of the last two
                                              iterations exceeds the first
                                              iteration's by MARGIN; on failure
                                              LOG's executions are reported
  check_training.py COLD_LOG WARM_LOG --warm-factor F
                                              the warm run performed at least
                                              F times fewer executions
"""
import csv
import re
import sys


def executions(log):
    with open(log) as f:
        m = re.search(r"(\d+) executions", f.read())
    if not m:
        sys.exit("no 'executions' count in %s" % log)
    return int(m.group(1))


if len(sys.argv) in (4, 5) and sys.argv[2] == "--improves":
    rows = list(csv.DictReader(open(sys.argv[1])))
    if len(rows) < 3:
        sys.exit("only %d iterations" % len(rows))
    first = float(rows[0]["mean_reward"])
    last = sum(float(r["mean_reward"]) for r in rows[-2:]) / 2
    print("mean reward: first iteration %.3f, last two %.3f" % (first, last))
    if not last > first + float(sys.argv[3]):
        if len(sys.argv) == 5 and executions(sys.argv[4]) > 0:
            print("the run timed %d executions live: the recorded memo does "
                  "not hold its schedules (a new code generator version?); "
                  "re-record it with Inputs/record_memo.sh"
                  % executions(sys.argv[4]))
        sys.exit("the mean reward did not improve by %s" % sys.argv[3])
    print("improved")
elif len(sys.argv) == 5 and sys.argv[3] == "--warm-factor":
    cold, warm = executions(sys.argv[1]), executions(sys.argv[2])
    print("executions: cold %d, warm %d" % (cold, warm))
    if cold == 0 or warm * float(sys.argv[4]) > cold:
        sys.exit("the warm run is not %sx cheaper" % sys.argv[4])
    print("memoized")
else:
    sys.exit(__doc__)
