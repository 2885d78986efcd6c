-- A table's watch code (net/table.py, Table.watch) beside its invite code, so that any process
-- finds the table of a watch code, as it finds the table of an invite code: behind the proxy a
-- watcher's first websocket (/ws) reaches whichever process that path hashes to, which is told the
-- table's own path (protocol.Moved) and sends the watcher there.  Not unique: a code is random, and
-- a table whose code another already had would pause at its first save for nothing.
ALTER TABLE tables ADD COLUMN watch text;
CREATE INDEX tables_watch ON tables (watch);
