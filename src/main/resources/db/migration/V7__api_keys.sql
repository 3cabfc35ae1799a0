-- API keys (io.conduit.persistence.PostgresApiKeyStore): only the SHA-256 of each key is kept; the key itself is
-- shown once, when it is created. A revoked key keeps its row (who had it, until when) and is found by no lookup.
CREATE TABLE conduit_api_keys (
    key_id     text        PRIMARY KEY,
    key_hash   text        NOT NULL UNIQUE,
    owner      text        NOT NULL,
    admin      boolean     NOT NULL,
    name       text,
    created_at timestamptz NOT NULL,
    revoked_at timestamptz
);
