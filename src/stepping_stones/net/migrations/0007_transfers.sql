-- The live transfer codes that carry a player's key to another device (net/players.py, Transfers),
-- shared by every process: a code made on one (POST /players/export) is good on another
-- (POST /players/import), and outlives the process that made it.  Only the code's sha256 is kept.
CREATE TABLE player_transfers (
    digest text PRIMARY KEY,             -- sha256 of the normalized code (codes.digest)
    player text NOT NULL,
    expires timestamptz NOT NULL
);
CREATE INDEX player_transfers_player ON player_transfers (player);
