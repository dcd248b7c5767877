package io.crater.notify;

import io.crater.platform.Json;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * What a webhook sends (docs/notifications.md, "Webhooks"): the body of each format and the signature over it. Pure:
 * the same event gives the same bytes.
 */
final class WebhookFormats {

    private WebhookFormats() {}

    static final String GENERIC = "generic";
    static final String SLACK = "slack";
    static final String FEISHU = "feishu";
    static final String DINGTALK = "dingtalk";

    /** The formats, in the order the console offers them. */
    static final List<String> FORMATS = List.of(GENERIC, SLACK, FEISHU, DINGTALK);

    static final String TIMESTAMP_HEADER = "X-Crater-Timestamp";
    static final String SIGNATURE_HEADER = "X-Crater-Signature";
    static final String EVENT_HEADER = "X-Crater-Event";
    static final String DELIVERY_HEADER = "X-Crater-Delivery";

    /** One event as a webhook carries it; {@code link} is absolute when the console's address is configured. */
    record Event(long id, String kind, String message, String link, Map<String, Object> args, Instant createdAt) {}

    /** The JSON body of an event in a format. */
    static String body(String format, Event e) {
        return Json.write(
                switch (format) {
                    case SLACK -> Map.of("text", slackText(e));
                    case FEISHU -> ordered("msg_type", "text", "content", Map.of("text", plainText(e)));
                    case DINGTALK -> ordered("msgtype", "text", "text", Map.of("content", plainText(e)));
                    default -> generic(e);
                });
    }

    private static Map<String, Object> generic(Event e) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", e.id());
        m.put("kind", e.kind());
        m.put("message", e.message());
        m.put("link", e.link());
        m.put("args", e.args() == null ? Map.of() : e.args());
        m.put("createdAt", e.createdAt().toString());
        return m;
    }

    private static Map<String, Object> ordered(String k1, Object v1, String k2, Object v2) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put(k1, v1);
        m.put(k2, v2);
        return m;
    }

    /** Slack's mrkdwn: {@code &}, {@code <} and {@code >} escaped, the link as {@code <url|Open in Crater>}. */
    static String slackText(Event e) {
        String text = e.message().replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
        return e.link() == null ? text : text + " <" + e.link() + "|Open in Crater>";
    }

    /** The message and, on its own line, the link (Feishu and DingTalk text messages). */
    static String plainText(Event e) {
        return e.link() == null ? e.message() : e.message() + "\n" + e.link();
    }

    /**
     * The signature header's value: {@code sha256=} and the lowercase hex HMAC-SHA256, keyed with the secret's UTF-8
     * bytes, of the timestamp (Unix seconds, as in the timestamp header), a dot and the body's bytes.
     */
    static String signature(String secret, long timestamp, String body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            mac.update((timestamp + ".").getBytes(StandardCharsets.UTF_8));
            return "sha256=" + HexFormat.of().formatHex(mac.doFinal(body.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException ex) {
            throw new IllegalStateException("HMAC-SHA256 is not available", ex);
        }
    }

    /** The link of a notification as a webhook gives it: absolute under the console's address, else none. */
    static String link(String consoleUrl, String link) {
        if (link == null || link.isEmpty()) {
            return null;
        }
        if (link.startsWith("http://") || link.startsWith("https://")) {
            return link;
        }
        if (consoleUrl == null || consoleUrl.isBlank()) {
            return null;
        }
        return consoleUrl.replaceAll("/+$", "") + (link.startsWith("/") ? link : "/" + link);
    }
}
