-- Frames of runs relayed between replicas on one database (issue 22): a replica writes a thread's frames of a wire
-- format here while another replica's clients watch that thread in that format, and wakes them with NOTIFY.
-- Unlogged: they are kept for minutes (the formats' replay retention); a database crash losing them loses replays
-- of runs another replica executed, never a run or a checkpoint.
CREATE UNLOGGED TABLE conduit_event_frames (
    id         bigserial   PRIMARY KEY,
    thread_id  text        NOT NULL,
    run_id     text        NOT NULL,
    format     text        NOT NULL, -- '' for a run's end
    origin     text        NOT NULL, -- the process that wrote it
    seq        bigint      NOT NULL, -- -1 for a run's end
    mode       text,
    ns         text,
    data       text,
    text_key   text,
    text_start integer,
    text_end   integer,
    created_at timestamptz NOT NULL DEFAULT now()
);
-- a frame is stored once, however often a relay replays it
CREATE UNIQUE INDEX conduit_event_frames_seq ON conduit_event_frames (thread_id, format, seq) WHERE seq >= 0;
CREATE INDEX conduit_event_frames_thread ON conduit_event_frames (thread_id, id);
CREATE INDEX conduit_event_frames_age ON conduit_event_frames (created_at);

-- Which process's clients read which thread in which format, renewed while they do.
CREATE UNLOGGED TABLE conduit_event_watches (
    thread_id  text        NOT NULL,
    format     text        NOT NULL,
    origin     text        NOT NULL,
    expires_at timestamptz NOT NULL,
    PRIMARY KEY (thread_id, format, origin)
);
