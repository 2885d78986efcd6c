-- The lobby of every process (net/tables.py, the lobby's followers): whether a table is in it
-- (listed, not started, a seat free: Table.in_lobby, as its snapshot says), and when it was opened,
-- written with each snapshot.  Behind the proxy the lobby's websocket (/ws) reaches one process, and
-- a listed table is held by whichever process its people's websockets hash to: each process shows
-- the tables of the others too, read from here.
ALTER TABLE tables ADD COLUMN lobby boolean NOT NULL DEFAULT false;
ALTER TABLE tables ADD COLUMN opened bigint;
CREATE INDEX tables_lobby ON tables (opened) WHERE lobby;
