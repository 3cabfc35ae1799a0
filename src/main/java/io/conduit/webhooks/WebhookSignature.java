package io.conduit.webhooks;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * How a delivery proves it came from this server: {@code X-Conduit-Signature: sha256=<hex>}, the HMAC-SHA256 with
 * the configured secret of {@code <X-Conduit-Timestamp>.<body>}. The timestamp (Unix seconds) is signed with the body
 * so a receiver that rejects old timestamps cannot be sent a captured delivery again.
 */
public final class WebhookSignature {

    public static final String SIGNATURE_HEADER = "X-Conduit-Signature";
    public static final String TIMESTAMP_HEADER = "X-Conduit-Timestamp";

    private final SecretKeySpec key;

    public WebhookSignature(String secret) {
        this.key = new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256");
    }

    /** The {@link #SIGNATURE_HEADER} value for {@code body} sent at {@code timestamp} (Unix seconds). */
    public String sign(long timestamp, String body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            mac.update((timestamp + ".").getBytes(StandardCharsets.UTF_8));
            return "sha256=" + HexFormat.of().formatHex(mac.doFinal(body.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
    }
}
