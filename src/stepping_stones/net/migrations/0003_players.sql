-- The players of every server process on the store (net/pgstore.py, PostgresPlayerStore, PostgresPlayerStore): the
-- same rows as the data folder's players.sqlite3 (net/players.py, SqlitePlayerStore), so that two
-- processes rate one player in one row.  A finished game is settled in one transaction that locks
-- its players' rows (SELECT ... FOR UPDATE, in the order of their ids): two processes settling two
-- games of one player at once each rate from the other's result, and no rating is lost.
CREATE TABLE players (
    id text PRIMARY KEY,                 -- a person's: 16 hex digits; a computer level's: computer-LEVEL
    name text NOT NULL,                  -- the name at the person's last table
    mu double precision,                 -- OpenSkill's rating (NULL before the first rated game)
    sigma double precision,
    rated integer NOT NULL DEFAULT 0,
    apart integer NOT NULL DEFAULT 0,
    since bigint NOT NULL
);

CREATE TABLE player_keys (
    digest text PRIMARY KEY,             -- SHA-256 of a player key: never the key
    player text NOT NULL REFERENCES players (id)
);

CREATE TABLE player_games (
    player text NOT NULL REFERENCES players (id),
    tab text NOT NULL,                   -- the table's id
    record text NOT NULL,                -- the record's file name (the shared library's, library_games.file)
    finished bigint NOT NULL,
    seat integer NOT NULL,
    place integer NOT NULL,
    rated integer NOT NULL,
    rating integer,                      -- the shown rating after this game (rated games)
    names text NOT NULL,                 -- the three names, one a line
    PRIMARY KEY (player, tab, seat)
);
CREATE INDEX player_games_by_player ON player_games (player, finished DESC);

CREATE TABLE settled_games (tab text PRIMARY KEY);
