-- The long-term store (LangGraph's Store API): JSON items by namespace and key that outlive threads.
-- namespace: its labels joined by '.' (labels hold no '.'); search: the value's words, for queries (full-text search).
CREATE TABLE conduit_store (
    namespace  text        NOT NULL,
    key        text        NOT NULL,
    value      jsonb       NOT NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    ttl_ms     bigint,
    expires_at timestamptz,
    search     tsvector    GENERATED ALWAYS AS (to_tsvector('simple', value::text)) STORED,
    PRIMARY KEY (namespace, key)
);
CREATE INDEX conduit_store_search ON conduit_store USING gin (search);
CREATE INDEX conduit_store_expires ON conduit_store (expires_at) WHERE expires_at IS NOT NULL;
