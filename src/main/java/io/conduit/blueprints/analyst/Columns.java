package io.conduit.blueprints.analyst;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.files.CsvRows;
import java.util.ArrayList;
import java.util.List;

/** Column names the model gave, as indexes of the file's header; an unknown name is an error that lists the real ones. */
final class Columns {

    private Columns() {
    }

    static int index(CsvRows rows, String name) {
        int i = rows.column(name);
        if (i < 0) {
            throw new IllegalArgumentException("no column \"" + name + "\"; the columns are " + String.join(", ", rows.header()));
        }
        return i;
    }

    /** The listed columns, or every column when the list is missing or empty. */
    static int[] indexes(CsvRows rows, JsonNode names) {
        List<Integer> out = new ArrayList<>();
        if (names == null || names.isEmpty()) {
            for (int i = 0; i < rows.header().size(); i++) {
                out.add(i);
            }
        } else {
            names.forEach(n -> out.add(index(rows, n.asText())));
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    static List<String> names(CsvRows rows, int[] indexes) {
        List<String> out = new ArrayList<>(indexes.length);
        for (int i : indexes) {
            out.add(rows.header().get(i));
        }
        return out;
    }

    static List<String> pick(String[] row, int[] indexes) {
        List<String> out = new ArrayList<>(indexes.length);
        for (int i : indexes) {
            out.add(row[i]);
        }
        return out;
    }
}
