package io.conduit.http;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Bodies a client should never send, made from a valid body of an endpoint by a seeded random: cut JSON, stray bytes,
 * a field's value of another type, deep nesting, a body past the size limit, NUL, lone surrogates, invalid UTF-8 and
 * over-long ids. Some mutations happen to be valid; the test accepts a 2xx for those.
 */
final class FuzzBodies {

    private final Random random;

    FuzzBodies(long seed) {
        this.random = new Random(seed);
    }

    int nextInt(int bound) {
        return random.nextInt(bound);
    }

    byte[] of(String valid) {
        String s = switch (random.nextInt(10)) {
            case 0 -> valid.substring(0, random.nextInt(Math.max(1, valid.length()))); // cut anywhere
            case 1 -> strayBytes();
            case 2 -> wrongType(valid);
            case 3 -> nested(random.nextBoolean() ? 5_000 : 200);
            case 4 -> valid.replaceFirst("\"[a-z][^\"]*\"(?=\\s*[,}\\]])", "\"a\\u0000b\""); // NUL in a string value
            case 5 -> valid.replaceFirst("\"[a-z][^\"]*\"(?=\\s*[,}\\]])", "\"x\\ud800y\""); // a lone surrogate
            case 6 -> valid.replaceFirst("\"[a-z_]+_id\"\\s*:\\s*\"[^\"]*\"", "\"thread_id\":\"" + "t".repeat(5_000) + "\"");
            case 7 -> "[" + valid + "]"; // an array where an object goes
            case 8 -> valid.replaceFirst("}\\s*$", ",\"input\":\"" + "x".repeat(1_200_000) + "\"}"); // past max-body-bytes
            default -> null;
        };
        if (s != null) {
            return s.getBytes(StandardCharsets.UTF_8);
        }
        byte[] bytes = valid.getBytes(StandardCharsets.UTF_8); // invalid UTF-8 inside a string
        int at = Math.max(1, valid.indexOf(':') + 2);
        byte[] out = new byte[bytes.length + 2];
        System.arraycopy(bytes, 0, out, 0, at);
        out[at] = (byte) 0xC3;
        out[at + 1] = (byte) 0x28;
        System.arraycopy(bytes, at, out, at + 2, bytes.length - at);
        return out;
    }

    private String strayBytes() {
        StringBuilder b = new StringBuilder();
        String alphabet = "{}[]\":,0123456789truefalsenul \\\n\t";
        for (int i = random.nextInt(64); i >= 0; i--) {
            b.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return b.toString();
    }

    private String wrongType(String valid) {
        List<String> wrong = List.of("12", "-1", "1e400", "true", "null", "[]", "{}", "\"\"", "[1,2]", "{\"a\":[]}", "\"ten\"");
        // replace the value of one field, found by its key
        List<Integer> keys = new ArrayList<>();
        for (int i = valid.indexOf("\":"); i >= 0; i = valid.indexOf("\":", i + 1)) {
            keys.add(i + 2);
        }
        if (keys.isEmpty()) {
            return wrong.get(random.nextInt(wrong.size()));
        }
        int start = keys.get(random.nextInt(keys.size()));
        int end = valueEnd(valid, start);
        return valid.substring(0, start) + wrong.get(random.nextInt(wrong.size())) + valid.substring(end);
    }

    /** Where the JSON value starting at {@code start} ends (strings, arrays and objects balanced). */
    private static int valueEnd(String s, int start) {
        int depth = 0;
        boolean inString = false;
        for (int i = start; i < s.length(); i++) {
            char c = s.charAt(i);
            if (inString) {
                if (c == '\\') {
                    i++;
                } else if (c == '"') {
                    inString = false;
                    if (depth == 0) {
                        return i + 1;
                    }
                }
            } else if (c == '"') {
                inString = true;
            } else if (c == '{' || c == '[') {
                depth++;
            } else if (c == '}' || c == ']') {
                if (depth == 0) {
                    return i;
                }
                if (--depth == 0) {
                    return i + 1;
                }
            } else if (c == ',' && depth == 0) {
                return i;
            }
        }
        return s.length();
    }

    private static String nested(int depth) {
        return "{\"input\":" + "[".repeat(depth) + "]".repeat(depth) + "}";
    }
}
