package io.conduit.blueprints.analyst;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.math.MathContext;

/** Numbers in tool results, compact: whole numbers without a fraction, others to 10 significant digits. */
final class Results {

    private Results() {
    }

    static void put(ObjectNode o, String field, Double value) {
        if (value == null) {
            o.putNull(field);
        } else if (value == Math.rint(value) && Math.abs(value) < 1e15) {
            o.put(field, value.longValue());
        } else {
            o.put(field, new BigDecimal(value).round(new MathContext(10)).stripTrailingZeros());
        }
    }
}
