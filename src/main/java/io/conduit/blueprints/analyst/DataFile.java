package io.conduit.blueprints.analyst;

import io.conduit.files.CsvSummary;
import java.util.List;

/** A CSV file of the thread as the analyst's state keeps it: what the model is told about it. */
public record DataFile(String fileId, String name, long rowCount, List<CsvSummary.Column> columns) {
}
