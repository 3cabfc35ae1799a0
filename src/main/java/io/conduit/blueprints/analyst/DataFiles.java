package io.conduit.blueprints.analyst;

import java.util.List;

/** The thread's CSV files, read by {@code load_metadata} at the start of each turn. */
public record DataFiles(List<DataFile> files) {

    public static final DataFiles NONE = new DataFiles(List.of());

    /** The files as the system prompt lists them. */
    String describe() {
        if (files.isEmpty()) {
            return "No CSV file has been uploaded to this conversation yet: ask the user to upload one.";
        }
        StringBuilder b = new StringBuilder("The CSV files of this conversation:\n");
        for (DataFile f : files) {
            b.append("- ").append(f.name()).append(" (").append(f.rowCount()).append(" rows): ");
            for (int i = 0; i < f.columns().size(); i++) {
                b.append(i == 0 ? "" : ", ").append(f.columns().get(i).name()).append(" [").append(f.columns().get(i).type()).append(']');
            }
            b.append('\n');
        }
        return b.toString();
    }
}
