package io.conduit.blueprints.analyst;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.files.CsvRows;
import io.conduit.files.Numbers;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One test on a row's column: {@code eq ne gt gte lt lte} compare numbers when both sides are numbers and text
 * otherwise; {@code contains} is a case-insensitive substring test. A row passes a list of conditions when it passes
 * all of them.
 */
record Condition(int column, String op, String value, Double number) {

    static final String SCHEMA = """
            {"type":"array","maxItems":10,"description":"conditions a row must all meet","items":{"type":"object",
             "properties":{"column":{"type":"string"},"op":{"enum":["eq","ne","gt","gte","lt","lte","contains"]},
             "value":{"type":["string","number","boolean"]}},"required":["column","op","value"],"additionalProperties":false}}""";

    static List<Condition> parse(JsonNode where, CsvRows rows) {
        List<Condition> out = new ArrayList<>();
        if (where == null || where.isNull()) {
            return out;
        }
        for (JsonNode c : where) {
            String value = c.get("value").asText();
            out.add(new Condition(Columns.index(rows, c.get("column").asText()), c.get("op").asText(), value, Numbers.parse(value)));
        }
        return out;
    }

    static boolean all(List<Condition> conditions, String[] row) {
        for (Condition c : conditions) {
            if (!c.test(row[c.column])) {
                return false;
            }
        }
        return true;
    }

    boolean test(String cell) {
        if (op.equals("contains")) {
            return cell.toLowerCase(Locale.ROOT).contains(value.toLowerCase(Locale.ROOT));
        }
        Double n = number == null ? null : Numbers.parse(cell);
        int cmp = n != null ? Double.compare(n, number) : cell.strip().compareTo(value.strip());
        return switch (op) {
            case "eq" -> cmp == 0;
            case "ne" -> cmp != 0;
            case "gt" -> cmp > 0;
            case "gte" -> cmp >= 0;
            case "lt" -> cmp < 0;
            case "lte" -> cmp <= 0;
            default -> throw new IllegalArgumentException("unknown operator " + op);
        };
    }
}
