"""Hold `BEGIN EXCLUSIVE` on a SQLite file until stdin closes (or the process is killed).

Usage: python hold_exclusive.py DB_PATH   -> prints "locked" once the lock is held.
"""

import sqlite3
import sys

con = sqlite3.connect(sys.argv[1], timeout=10, isolation_level=None)
con.execute("BEGIN EXCLUSIVE")
print("locked", flush=True)
sys.stdin.read()  # until the test closes our stdin
con.execute("ROLLBACK")
con.close()
print("released", flush=True)
