package io.conduit.tools;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An HTTP tool's URL with {@code {arg}} placeholders. Values are URL-encoded, so an argument cannot add a path, a
 * query or another host; only a placeholder inside the host itself can change where the request goes.
 */
final class UrlTemplate {

    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([A-Za-z0-9_]+)}");
    private static final Pattern AUTHORITY = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*://([^/?#]*)");

    private final String template;
    private final Set<String> names = new LinkedHashSet<>();

    UrlTemplate(String template) {
        this.template = template;
        Matcher m = PLACEHOLDER.matcher(template);
        while (m.find()) {
            names.add(m.group(1));
        }
        String scheme = URI.create(PLACEHOLDER.matcher(template).replaceAll("x")).getScheme();
        if (!"http".equalsIgnoreCase(scheme) && !"https".equalsIgnoreCase(scheme)) {
            throw new IllegalArgumentException("not an http(s) URL: " + template);
        }
    }

    /** The arguments the URL uses. */
    Set<String> names() {
        return names;
    }

    /** The host every request goes to, when no placeholder is part of it. */
    Optional<String> fixedHost() {
        Matcher authority = AUTHORITY.matcher(template);
        if (authority.find() && PLACEHOLDER.matcher(authority.group(1)).find()) {
            return Optional.empty();
        }
        return Optional.ofNullable(host(URI.create(PLACEHOLDER.matcher(template).replaceAll("x"))));
    }

    URI expand(JsonNode arguments) {
        Matcher m = PLACEHOLDER.matcher(template);
        StringBuilder url = new StringBuilder();
        while (m.find()) {
            JsonNode value = arguments.get(m.group(1));
            String text = value == null || value.isNull() ? "" : value.isValueNode() ? value.asText() : value.toString();
            m.appendReplacement(url, Matcher.quoteReplacement(URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20")));
        }
        m.appendTail(url);
        return URI.create(url.toString());
    }

    /** Lower-cased, null when the URI has no server-based host. */
    static String host(URI uri) {
        return uri.getHost() == null ? null : uri.getHost().toLowerCase(Locale.ROOT);
    }
}
