"""Checks a pearl-tune log (argv[1]): it has argv[2] summary lines, and in
each every candidate measured came from the memo."""
import re
import sys

found = re.findall(r"(\d+) measured, (\d+) from the memo", open(sys.argv[1]).read())
if len(found) != int(sys.argv[2]):
    sys.exit("%d summaries, expected %s" % (len(found), sys.argv[2]))
for measured, memo in found:
    if measured != memo:
        sys.exit("%s measured, only %s from the memo" % (measured, memo))
print("all %d searches answered by the memo" % len(found))
