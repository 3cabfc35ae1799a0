package io.conduit.files;

import java.util.List;

/** A CSV file's header, each column's inferred type, and how many data rows it has (the header not counted). */
public record CsvSummary(List<Column> columns, long rowCount) {

    /** One column: its name, and {@code integer}, {@code number}, {@code boolean} or {@code string} (empty cells ignored). */
    public record Column(String name, String type) {
    }

    public List<String> names() {
        return columns.stream().map(Column::name).toList();
    }
}
