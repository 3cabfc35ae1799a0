package io.conduit.blueprints.analyst;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.kernel.JsonCodec;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Metrics per group of rows, fed one row at a time: only the groups' running totals are kept, never the rows. The
 * number of groups is bounded (a column of ids would make one per row): past it, an error tells the model to group
 * by something coarser or filter first.
 */
final class Grouping {

    private final int[] keys;
    private final List<String> keyNames;
    private final List<Metric> metrics;
    private final int maxGroups;
    private final Map<List<String>, Metric.Accumulator[]> groups = new LinkedHashMap<>();
    private long rows;

    Grouping(int[] keys, List<String> keyNames, List<Metric> metrics, int maxGroups) {
        this.keys = keys;
        this.keyNames = keyNames;
        this.metrics = metrics;
        this.maxGroups = maxGroups;
    }

    void add(String[] row) {
        rows++;
        List<String> key = Columns.pick(row, keys);
        Metric.Accumulator[] acc = groups.get(key);
        if (acc == null) {
            if (groups.size() >= maxGroups) {
                throw new IllegalArgumentException("more than " + maxGroups + " groups; group by fewer or coarser columns, or filter first");
            }
            acc = new Metric.Accumulator[metrics.size()];
            for (int i = 0; i < acc.length; i++) {
                acc[i] = new Metric.Accumulator();
            }
            groups.put(key, acc);
        }
        for (int i = 0; i < acc.length; i++) {
            acc[i].add(metrics.get(i), row);
        }
    }

    long rows() {
        return rows;
    }

    /** The groups, largest first metric first (descending), at most {@code limit}; with how many there were. */
    ObjectNode result(int limit) {
        List<Map.Entry<List<String>, Metric.Accumulator[]>> all = new ArrayList<>(groups.entrySet());
        if (keys.length > 0) {
            Metric first = metrics.get(0);
            all.sort(Comparator.comparing((Map.Entry<List<String>, Metric.Accumulator[]> e) -> {
                Double v = e.getValue()[0].value(first);
                return v == null ? Double.NEGATIVE_INFINITY : v;
            }).reversed());
        }
        ObjectNode out = JsonCodec.MAPPER.createObjectNode();
        out.put("rows", rows);
        out.put("group_count", all.size());
        ArrayNode list = out.putArray("groups");
        for (int g = 0; g < Math.min(limit, all.size()); g++) {
            Map.Entry<List<String>, Metric.Accumulator[]> e = all.get(g);
            ObjectNode o = list.addObject();
            for (int k = 0; k < keys.length; k++) {
                o.put(keyNames.get(k), e.getKey().get(k));
            }
            for (int i = 0; i < metrics.size(); i++) {
                Results.put(o, metrics.get(i).name(), e.getValue()[i].value(metrics.get(i)));
            }
        }
        if (all.isEmpty() && keys.length == 0) {
            // no rows at all: the metrics of the empty set (count 0, the others null)
            ObjectNode o = list.addObject();
            Metric.Accumulator empty = new Metric.Accumulator();
            metrics.forEach(m -> Results.put(o, m.name(), empty.value(m)));
        }
        out.put("truncated", all.size() > limit);
        return out;
    }
}
