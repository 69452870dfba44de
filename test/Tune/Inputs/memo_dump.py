"""Prints every row of every table of the memo (argv[1]), sorted: two memos
with the same answers print the same text whatever order they were
written in."""
import sqlite3
import sys

db = sqlite3.connect(sys.argv[1])
tables = [r[0] for r in db.execute(
    "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
for t in tables:
    rows = sorted(repr(r) for r in db.execute('SELECT * FROM "%s"' % t))
    print("table %s: %d rows" % (t, len(rows)))
    for r in rows:
        print(r)
