-- Records of the serving layer: threads (beside their checkpoints in conduit_threads), runs and assistants.
-- Ids, graph ids and names sort with the "C" collation, i.e. by code point, as the in-memory stores sort them.
-- JSON objects are jsonb so metadata filters can use containment (@>).

CREATE TABLE conduit_thread_records (
    thread_id   text COLLATE "C" PRIMARY KEY,
    metadata    jsonb       NOT NULL DEFAULT '{}',
    status      text        NOT NULL,          -- idle | busy | interrupted | error
    created_at  timestamptz NOT NULL,
    updated_at  timestamptz NOT NULL,
    expires_at  timestamptz,                   -- set by a TTL; NULL: never
    next_seq    bigint      NOT NULL DEFAULT 1 -- first event sequence number not yet reserved
);
CREATE INDEX conduit_thread_records_metadata ON conduit_thread_records USING gin (metadata jsonb_path_ops);
CREATE INDEX conduit_thread_records_expiry ON conduit_thread_records (expires_at) WHERE expires_at IS NOT NULL;

-- No foreign key to the thread records: the run store stands on its own (as the in-memory one does), and whoever
-- deletes a thread deletes its runs (RunStore.deleteThread).
CREATE TABLE conduit_runs (
    run_id             text COLLATE "C" PRIMARY KEY,
    thread_id          text COLLATE "C" NOT NULL,
    assistant_id       text,
    status             text        NOT NULL,   -- pending | running | success | error | interrupted | timeout
    metadata           jsonb       NOT NULL DEFAULT '{}',
    multitask_strategy text        NOT NULL,   -- reject | enqueue | interrupt | rollback
    kwargs             jsonb       NOT NULL DEFAULT '{}',
    created_at         timestamptz NOT NULL,
    updated_at         timestamptz NOT NULL,
    not_before         timestamptz NOT NULL,   -- not claimed before (after_seconds)
    worker_id          text                    -- the worker holding it while running
);
-- What guarantees at most one running run per thread, whichever worker or replica claims.
CREATE UNIQUE INDEX conduit_runs_one_running ON conduit_runs (thread_id) WHERE status = 'running';
-- Claiming walks pending runs oldest first; finished runs, the bulk of the table, stay out of this index.
CREATE INDEX conduit_runs_claim ON conduit_runs (created_at, run_id) WHERE status = 'pending';
-- A thread's runs, newest first, and its runs in flight.
CREATE INDEX conduit_runs_thread ON conduit_runs (thread_id, created_at, run_id);

-- An assistant: which of its versions is the latest (not always the highest: a version can be made latest again).
CREATE TABLE conduit_assistants (
    assistant_id   text COLLATE "C" PRIMARY KEY,
    latest_version integer NOT NULL
);

CREATE TABLE conduit_assistant_versions (
    assistant_id text COLLATE "C" NOT NULL REFERENCES conduit_assistants ON DELETE CASCADE,
    version      integer     NOT NULL,
    graph_id     text COLLATE "C",
    name         text COLLATE "C",
    description  text,
    config       jsonb       NOT NULL DEFAULT '{}',
    context      jsonb       NOT NULL DEFAULT '{}',
    metadata     jsonb       NOT NULL DEFAULT '{}',
    created_at   timestamptz NOT NULL,
    updated_at   timestamptz NOT NULL,
    PRIMARY KEY (assistant_id, version)
);
CREATE INDEX conduit_assistant_versions_metadata ON conduit_assistant_versions USING gin (metadata jsonb_path_ops);
