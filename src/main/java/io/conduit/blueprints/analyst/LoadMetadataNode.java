package io.conduit.blueprints.analyst;

import io.conduit.files.FileStore;
import io.conduit.files.StoredFile;
import io.conduit.graph.Node;
import io.conduit.graph.NodeContext;
import io.conduit.graph.State;
import io.conduit.graph.Update;
import io.smallrye.mutiny.Uni;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code load_metadata}: the thread's CSV files, with their columns, types and row counts (found when they were
 * uploaded, so nothing is read here), into {@code files}; a new turn starts with no tool rounds.
 */
final class LoadMetadataNode implements Node {

    private final FileStore files;

    LoadMetadataNode(FileStore files) {
        this.files = files;
    }

    @Override
    public Uni<Update> run(State state, NodeContext ctx) {
        return files.list(ctx.threadId()).map(list -> {
            List<DataFile> csv = new ArrayList<>();
            for (StoredFile f : list) {
                if (f.csv() != null) {
                    csv.add(new DataFile(f.fileId(), f.name(), f.csv().rowCount(), f.csv().columns()));
                }
            }
            return Update.of(AnalystState.FILES, new DataFiles(List.copyOf(csv))).set(AnalystState.ITERATIONS, 0);
        });
    }
}
