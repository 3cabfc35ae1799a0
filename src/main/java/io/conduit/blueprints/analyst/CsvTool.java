package io.conduit.blueprints.analyst;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.agent.port.ToolScope;
import io.conduit.files.ChunkedInputStream;
import io.conduit.files.CsvRows;
import io.conduit.files.FileStore;
import io.conduit.files.StoredFile;
import io.conduit.tools.Tool;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import java.time.Duration;
import java.util.List;

/**
 * A tool over one of the thread's CSV files ({@code file}: its name or id; only the thread's own files are found).
 * The file is looked up without blocking, then read as a stream of rows on a worker thread: a row at a time, never
 * the whole file. What comes back is compact JSON with its rows capped by {@code conduit.blueprints.analyst.max-rows}.
 */
abstract class CsvTool implements Tool {

    static final String FILE = "{\"type\":\"string\",\"description\":\"the CSV file's name (or id)\"}";

    private final FileStore files;
    final AnalystConfig config;

    CsvTool(FileStore files, AnalystConfig config) {
        this.files = files;
        this.config = config;
    }

    /** Reads the file's rows; the result becomes the tool's answer. Runs on a worker thread. */
    abstract ObjectNode scan(CsvRows rows, JsonNode arguments);

    @Override
    public Uni<String> execute(JsonNode arguments, ToolScope scope) {
        String name = arguments.get("file").asText();
        return files.list(scope.threadId())
                .map(list -> find(list, name))
                .emitOn(Infrastructure.getDefaultWorkerPool())
                .map(file -> {
                    try (ChunkedInputStream in = new ChunkedInputStream(files.content(file.threadId(), file.fileId()));
                         CsvRows rows = CsvRows.open(in)) {
                        ObjectNode out = scan(rows, arguments);
                        out.put("file", file.name());
                        return out.toString();
                    }
                });
    }

    @Override
    public Duration timeout() {
        return config.toolTimeout();
    }

    static StoredFile find(List<StoredFile> files, String name) {
        StoredFile found = null;
        for (StoredFile f : files) {
            if (f.csv() != null && (f.fileId().equals(name) || f.name().equals(name))) {
                found = f; // the newest of one name
            }
        }
        if (found == null) {
            List<String> csv = files.stream().filter(f -> f.csv() != null).map(StoredFile::name).toList();
            throw new IllegalArgumentException("no CSV file named " + name + " in this conversation; "
                    + (csv.isEmpty() ? "none was uploaded" : "the files are " + String.join(", ", csv)));
        }
        return found;
    }

    int limit(JsonNode arguments) {
        return Math.min(config.maxRows(), arguments.path("limit").asInt(config.maxRows()));
    }
}
