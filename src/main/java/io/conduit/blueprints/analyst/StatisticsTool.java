package io.conduit.blueprints.analyst;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.files.CsvRows;
import io.conduit.files.FileStore;
import io.conduit.files.Numbers;
import io.conduit.kernel.JsonCodec;
import java.util.HashMap;
import java.util.Map;

/**
 * {@code column_statistics}: per column, how many cells are filled and empty; for numbers min, max, mean, sum and the
 * (population) standard deviation, in one pass (Welford); for text the distinct values (counted up to a bound) and
 * the most frequent ones.
 */
final class StatisticsTool extends CsvTool {

    private static final int DISTINCT = 1000;
    private static final int TOP = 5;

    StatisticsTool(FileStore files, AnalystConfig config) {
        super(files, config);
    }

    @Override
    public String name() {
        return "column_statistics";
    }

    @Override
    public String description() {
        return "Statistics of columns of a CSV file: filled and empty cells; min, max, mean, sum, stddev of numeric columns; "
                + "distinct and most frequent values of text columns.";
    }

    @Override
    public String parametersSchema() {
        return "{\"type\":\"object\",\"properties\":{\"file\":" + FILE + ",\"columns\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}}},"
                + "\"required\":[\"file\"],\"additionalProperties\":false}";
    }

    private static final class Stats {
        long filled;
        long empty;
        long numbers;
        double mean;
        double m2;
        double sum;
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        final Map<String, Long> counts = new HashMap<>();
        boolean moreDistinct;

        void add(String cell) {
            String v = cell.strip();
            if (v.isEmpty()) {
                empty++;
                return;
            }
            filled++;
            Double n = Numbers.parse(v);
            if (n != null) {
                numbers++;
                double delta = n - mean;
                mean += delta / numbers;
                m2 += delta * (n - mean);
                sum += n;
                min = Math.min(min, n);
                max = Math.max(max, n);
            }
            if (counts.containsKey(v) || counts.size() < DISTINCT) {
                counts.merge(v, 1L, Long::sum);
            } else {
                moreDistinct = true;
            }
        }
    }

    @Override
    ObjectNode scan(CsvRows rows, JsonNode arguments) {
        int[] columns = Columns.indexes(rows, arguments.get("columns"));
        Stats[] stats = new Stats[columns.length];
        for (int i = 0; i < stats.length; i++) {
            stats[i] = new Stats();
        }
        long count = 0;
        for (CsvRows.Row row = rows.next(); row != null; row = rows.next()) {
            count++;
            for (int i = 0; i < columns.length; i++) {
                stats[i].add(row.values()[columns[i]]);
            }
        }
        ObjectNode out = JsonCodec.MAPPER.createObjectNode().put("rows", count);
        ObjectNode cols = out.putObject("columns");
        for (int i = 0; i < columns.length; i++) {
            Stats s = stats[i];
            ObjectNode c = cols.putObject(rows.header().get(columns[i])).put("filled", s.filled).put("empty", s.empty);
            if (s.numbers > 0 && s.numbers == s.filled) {
                Results.put(c, "min", s.min);
                Results.put(c, "max", s.max);
                Results.put(c, "mean", s.mean);
                Results.put(c, "sum", s.sum);
                Results.put(c, "stddev", Math.sqrt(s.m2 / s.numbers));
            } else {
                c.put("distinct", s.counts.size() + (s.moreDistinct ? "+" : ""));
                ObjectNode top = c.putObject("top");
                s.counts.entrySet().stream()
                        .sorted(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                        .limit(TOP).forEach(e -> top.put(e.getKey(), e.getValue()));
            }
        }
        return out;
    }
}
