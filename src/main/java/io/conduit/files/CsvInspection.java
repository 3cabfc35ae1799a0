package io.conduit.files;

import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a whole CSV file once, a row at a time, to check it and summarize it: its columns, the type each column's
 * values share and the number of rows. Blocking: on a worker thread.
 */
public final class CsvInspection {

    private CsvInspection() {
    }

    /** The file's summary; a {@link MalformedCsvException} names the first line that is not CSV. */
    public static CsvSummary inspect(InputStream in) {
        try (CsvRows rows = CsvRows.open(in)) {
            int n = rows.header().size();
            ValueType[] types = new ValueType[n];
            long count = 0;
            for (CsvRows.Row row = rows.next(); row != null; row = rows.next()) {
                count++;
                for (int i = 0; i < n; i++) {
                    types[i] = ValueType.widen(types[i], row.values()[i]);
                }
            }
            List<CsvSummary.Column> columns = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                columns.add(new CsvSummary.Column(rows.header().get(i), (types[i] == null ? ValueType.STRING : types[i]).wire()));
            }
            return new CsvSummary(List.copyOf(columns), count);
        }
    }
}
