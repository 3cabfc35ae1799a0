package io.conduit.blueprints.analyst;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.files.CsvRows;
import io.conduit.files.Numbers;
import java.util.ArrayList;
import java.util.List;

/**
 * One aggregate over a column: {@code count} (rows), {@code sum}, {@code avg}, {@code min}, {@code max} (of the cells
 * that hold numbers; the others are counted as skipped). Named {@code fn(column)} in results, or {@code count}.
 */
record Metric(String fn, int column, String name) {

    static final String SCHEMA = """
            {"type":"array","minItems":1,"maxItems":10,"items":{"type":"object",
             "properties":{"fn":{"enum":["count","sum","avg","min","max"]},"column":{"type":"string","description":"not needed for count"}},
             "required":["fn"],"additionalProperties":false}}""";

    static List<Metric> parse(JsonNode metrics, CsvRows rows) {
        List<Metric> out = new ArrayList<>();
        for (JsonNode m : metrics) {
            String fn = m.get("fn").asText();
            String column = m.path("column").asText("");
            if (fn.equals("count") && column.isEmpty()) {
                out.add(new Metric(fn, -1, "count"));
            } else if (column.isEmpty()) {
                throw new IllegalArgumentException(fn + " needs a column");
            } else {
                out.add(new Metric(fn, Columns.index(rows, column), fn + "(" + column + ")"));
            }
        }
        return out;
    }

    /** The running state of one metric over one group of rows. */
    static final class Accumulator {
        long rows;
        long numbers;
        double sum;
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;

        void add(Metric m, String[] row) {
            rows++;
            if (m.column < 0) {
                return;
            }
            Double n = Numbers.parse(row[m.column]);
            if (n != null) {
                numbers++;
                sum += n;
                min = Math.min(min, n);
                max = Math.max(max, n);
            }
        }

        /** The metric's value: a number, or null when no cell held one. */
        Double value(Metric m) {
            if (m.fn.equals("count")) {
                return (double) (m.column < 0 ? rows : numbers);
            }
            if (numbers == 0) {
                return null;
            }
            return switch (m.fn) {
                case "sum" -> sum;
                case "avg" -> sum / numbers;
                case "min" -> min;
                case "max" -> max;
                default -> throw new IllegalArgumentException("unknown function " + m.fn);
            };
        }
    }
}
