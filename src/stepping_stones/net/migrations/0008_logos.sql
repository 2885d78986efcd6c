-- The clubs' logos on the felt (net/logos.py), shared by every process: a logo sent to one process
-- (POST /logos) may be named by a table opened on another (POST /tables: a proxy sends requests
-- without a table in their path to any process), a table keeps its logo and club when another
-- process takes it up, and any process serves the image (GET /logo/DIGEST.png).
CREATE TABLE logos (
    digest text PRIMARY KEY CHECK (digest ~ '^[0-9a-f]{32}$'),
    png bytea NOT NULL,                  -- the logo as logos.felt_logo wrote it again
    sent timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE table_logos (
    table_id text PRIMARY KEY,           -- no foreign key: kept beside the table, gone with it
    digest text,                         -- the logo it shows (None: the club's name alone)
    club text
);
CREATE INDEX table_logos_digest ON table_logos (digest);
