-- Files uploaded to threads (io.conduit.persistence.PostgresFileStore). The bytes are kept in chunks of 256 KiB,
-- each its own row, so a file is written and read a chunk at a time: no statement holds a whole file in memory.
CREATE TABLE conduit_thread_files (
    thread_id    text        NOT NULL,
    file_id      text        NOT NULL,
    name         text        NOT NULL,
    content_type text        NOT NULL,
    size         bigint      NOT NULL,
    chunks       integer     NOT NULL,
    csv          jsonb,
    created_at   timestamptz NOT NULL,
    PRIMARY KEY (thread_id, file_id)
);

CREATE TABLE conduit_thread_file_chunks (
    thread_id text    NOT NULL,
    file_id   text    NOT NULL,
    seq       integer NOT NULL,
    data      bytea   NOT NULL,
    PRIMARY KEY (thread_id, file_id, seq),
    FOREIGN KEY (thread_id, file_id) REFERENCES conduit_thread_files (thread_id, file_id) ON DELETE CASCADE
);
