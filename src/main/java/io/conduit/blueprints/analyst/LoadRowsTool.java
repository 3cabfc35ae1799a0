package io.conduit.blueprints.analyst;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.files.CsvRows;
import io.conduit.files.FileStore;
import io.conduit.kernel.JsonCodec;

/** {@code load_rows}: a window of rows (offset, limit), some columns or all; reading stops at the window's end. */
final class LoadRowsTool extends CsvTool {

    LoadRowsTool(FileStore files, AnalystConfig config) {
        super(files, config);
    }

    @Override
    public String name() {
        return "load_rows";
    }

    @Override
    public String description() {
        return "Rows of a CSV file as they are: from offset (0 is the first data row), at most limit of them, some columns or all.";
    }

    @Override
    public String parametersSchema() {
        return "{\"type\":\"object\",\"properties\":{\"file\":" + FILE + ",\"offset\":{\"type\":\"integer\",\"minimum\":0},"
                + "\"limit\":{\"type\":\"integer\",\"minimum\":1},\"columns\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}}},"
                + "\"required\":[\"file\"],\"additionalProperties\":false}";
    }

    @Override
    ObjectNode scan(CsvRows rows, JsonNode arguments) {
        int[] columns = Columns.indexes(rows, arguments.get("columns"));
        long offset = arguments.path("offset").asLong(0);
        int limit = limit(arguments);
        ObjectNode out = JsonCodec.MAPPER.createObjectNode();
        out.set("columns", JsonCodec.MAPPER.valueToTree(Columns.names(rows, columns)));
        ArrayNode list = out.putArray("rows");
        long index = 0;
        for (CsvRows.Row row = rows.next(); row != null && list.size() < limit; row = rows.next(), index++) {
            if (index >= offset) {
                list.add(JsonCodec.MAPPER.valueToTree(Columns.pick(row.values(), columns)));
            }
        }
        out.put("offset", offset);
        return out;
    }
}
