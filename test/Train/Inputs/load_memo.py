"""Creates the SQLite memo database argv[1] from the SQL dump argv[2]."""
import sqlite3
import sys

db = sqlite3.connect(sys.argv[1])
with open(sys.argv[2]) as f:
    db.executescript(f.read())
db.close()
