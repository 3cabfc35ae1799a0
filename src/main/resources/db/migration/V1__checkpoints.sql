-- Conduit's checkpoint store. Rows are small on purpose: a checkpoint holds only what its step changed
-- (value channels it wrote, and the writes of delta channels such as messages), so the bytes a step writes do
-- not grow with the conversation. Full states are kept as occasional snapshots, compressed.

-- One row per thread and checkpoint namespace: the head pointer that writers advance with a compare-and-set,
-- and a compact key that the other tables use instead of repeating the thread id.
CREATE TABLE conduit_threads (
    thread_id   text        NOT NULL,
    ns          text        NOT NULL,
    thread_key  bigint      GENERATED ALWAYS AS IDENTITY,
    head_id     uuid        NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (thread_id, ns)
);

CREATE TABLE conduit_checkpoints (
    thread_key     bigint      NOT NULL,
    checkpoint_id  uuid        NOT NULL,   -- UUIDv7: sorts in creation order and carries the creation time
    parent_id      uuid,
    step           integer     NOT NULL,
    source         text        NOT NULL,   -- input | loop | update | fork
    format         smallint    NOT NULL,   -- encoding version of the JSON columns; readers refuse unknown ones
    chain_length   integer     NOT NULL,   -- checkpoints since the nearest snapshot on this lineage
    run_id         uuid,
    next           text,                   -- nodes that run next, comma-separated; NULL when the run ended here
    next_sends     jsonb,                  -- tasks with an input of their own (Send): [{"node","input"}]
    channel_values jsonb,                  -- {channel: value} of value channels written at this step
    channel_deltas jsonb,                  -- {channel: [writes]} of delta channels written at this step
    metadata       jsonb,
    PRIMARY KEY (thread_key, checkpoint_id)
);

-- The full state at some checkpoints; reads start from the nearest one and replay the deltas after it.
CREATE TABLE conduit_snapshots (
    thread_key     bigint   NOT NULL,
    checkpoint_id  uuid     NOT NULL,
    format         smallint NOT NULL,
    channel_values jsonb    NOT NULL,
    PRIMARY KEY (thread_key, checkpoint_id)
);
ALTER TABLE conduit_snapshots ALTER COLUMN channel_values SET COMPRESSION lz4;

-- Writes of tasks of a superstep that has not completed, stored as each task finishes.
CREATE TABLE conduit_writes (
    thread_key     bigint  NOT NULL,
    checkpoint_id  uuid    NOT NULL,
    task_id        text    NOT NULL,
    idx            integer NOT NULL,
    node           text    NOT NULL,
    channel        text    NOT NULL,
    value          jsonb   NOT NULL,
    PRIMARY KEY (thread_key, checkpoint_id, task_id, idx)
);
