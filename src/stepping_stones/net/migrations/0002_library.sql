-- The shared library of finished games (storage/library/shelf.py; net/pgstore.py, PostgresShelf):
-- each record with its sidecar and its table's notes, and the library's index rows in the columns
-- of the data folder's library.sqlite3 (storage/library/database.py), so that `stats` and `history`
-- ask both the same queries (storage/library/stats.py, QUERIES).
CREATE TABLE library_games (
    hash text PRIMARY KEY CHECK (hash ~ '^[0-9a-f]{64}$'),  -- SHA-256 of the record as the program writes it
    file text NOT NULL UNIQUE,           -- the record's name, table-DATE-ID.json
    played text NOT NULL,                -- 'YYYY-MM-DD HH:MM:SS', the server's local time
    rules text NOT NULL,                 -- the record's rules object, as JSON
    complete integer NOT NULL CHECK (complete IN (0, 1)),
    hands integer NOT NULL CHECK (hands BETWEEN 0 AND 1000),
    assisted integer NOT NULL CHECK (assisted IN (0, 1)),
    seed text,
    table_id text NOT NULL UNIQUE,       -- the table it was played at: a table's game is filed once
    record text NOT NULL,                -- the record (docs/records.md)
    sidecar text,                        -- its sidecar (storage/sidecar.py)
    notes text NOT NULL,                 -- the table's file (net/journal.py, TableFile)
    filed timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE library_seats (
    hash text NOT NULL REFERENCES library_games (hash) ON DELETE CASCADE,
    seat integer NOT NULL CHECK (seat BETWEEN 0 AND 2),
    name text NOT NULL,
    level text,
    total integer NOT NULL,
    firsts integer NOT NULL,
    winner integer NOT NULL CHECK (winner IN (0, 1)),
    stood_in text,
    PRIMARY KEY (hash, seat)
);
CREATE INDEX library_seats_name ON library_seats (name);

CREATE TABLE library_results (
    hash text NOT NULL REFERENCES library_games (hash) ON DELETE CASCADE,
    seat integer NOT NULL CHECK (seat BETWEEN 0 AND 2),
    contract text NOT NULL,
    count integer,
    points integer,
    first integer CHECK (first IN (0, 1)),
    PRIMARY KEY (hash, seat, contract)
);
