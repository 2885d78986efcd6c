-- A lease lasts while its process lives (net/pgstore.py): each server process renews one row of
-- its own here, once a beat, whatever the number of tables it holds (a lease row each, renewed
-- each second, was 1,000 row updates a second at 1,000 tables); a table's lease names its process
-- and is held while that process's row has not lapsed.
CREATE TABLE processes (
    owner text PRIMARY KEY,              -- the server process (pgstore.new_owner)
    expires timestamptz NOT NULL         -- renewed every beat while it lives
);
ALTER TABLE leases DROP COLUMN expires;
