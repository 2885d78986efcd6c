-- The tables of the table server (net/pgstore.py): one row per table, one per move, one per
-- seat secret's digest, one lease per table held by a server process.
CREATE TABLE tables (
    id text PRIMARY KEY,                 -- 16 hexadecimal digits
    code text NOT NULL,                  -- the invite code, normalized (net/codes.py)
    snapshot text NOT NULL,              -- the journal's first line, byte for byte (journal.TableFile)
    updated timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX tables_code ON tables (code);

CREATE TABLE moves (
    table_id text NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    n integer NOT NULL,                  -- 1, 2, ... after the snapshot
    line text NOT NULL,                  -- journal.JournalMove's line
    PRIMARY KEY (table_id, n)
);

CREATE TABLE seats (
    digest text PRIMARY KEY,             -- sha256 of the seat's secret (the secret is never kept)
    table_id text NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seat smallint NOT NULL
);
CREATE INDEX seats_table ON seats (table_id);

CREATE TABLE leases (
    table_id text PRIMARY KEY,           -- no foreign key: a lease may be taken before the first save
    owner text NOT NULL,                 -- the server process that holds the table
    expires timestamptz NOT NULL,        -- renewed while it lives
    wanted text                          -- another process asked for the table: handed to it
);
CREATE INDEX leases_owner ON leases (owner);
