package io.crater.notify;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The body of every webhook format, the signature over it, and which URLs a webhook may have. */
class WebhookFormatsTest {

    static final Instant AT = Instant.parse("2026-12-02T10:00:00Z");

    static WebhookFormats.Event failed(String link) {
        Map<String, Object> args = new LinkedHashMap<>();
        args.put("job", "j7k3f9");
        args.put("exitCode", 137);
        return new WebhookFormats.Event(
                42, "job.failed", "Your job train (j7k3f9) failed with exit code 137 (OOMKilled) <&>.", link, args, AT);
    }

    static Stream<Arguments> bodies() {
        String link = "https://crater.example.org/jobs/j7k3f9";
        String text = "Your job train (j7k3f9) failed with exit code 137 (OOMKilled) <&>.";
        return Stream.of(
                Arguments.of(
                        "generic",
                        link,
                        "{\"id\":42,\"kind\":\"job.failed\",\"message\":\"" + text + "\",\"link\":\"" + link
                                + "\",\"args\":{\"job\":\"j7k3f9\",\"exitCode\":137},\"createdAt\":\"2026-12-02T10:00:00Z\"}"),
                Arguments.of(
                        "generic without a link",
                        null,
                        "{\"id\":42,\"kind\":\"job.failed\",\"message\":\"" + text
                                + "\",\"link\":null,\"args\":{\"job\":\"j7k3f9\",\"exitCode\":137},"
                                + "\"createdAt\":\"2026-12-02T10:00:00Z\"}"),
                Arguments.of(
                        "slack",
                        link,
                        "{\"text\":\"Your job train (j7k3f9) failed with exit code 137 (OOMKilled) &lt;&amp;&gt;. <"
                                + link + "|Open in Crater>\"}"),
                Arguments.of(
                        "slack without a link",
                        null,
                        "{\"text\":\"Your job train (j7k3f9) failed with exit code"
                                + " 137 (OOMKilled) &lt;&amp;&gt;.\"}"),
                Arguments.of(
                        "feishu",
                        link,
                        "{\"msg_type\":\"text\",\"content\":{\"text\":\"" + text + "\\n" + link + "\"}}"),
                Arguments.of(
                        "dingtalk",
                        link,
                        "{\"msgtype\":\"text\",\"text\":{\"content\":\"" + text + "\\n" + link + "\"}}"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("bodies")
    void eachFormatHasItsBody(String name, String link, String expected) {
        String format = name.split(" ")[0];
        assertThat(WebhookFormats.body(format, failed(link))).isEqualTo(expected);
    }

    @Test
    void theSignatureIsTheHmacOfTheTimestampADotAndTheBody() {
        // printf '%s' '1700000000.{"text":"hi"}' | openssl dgst -sha256 -hmac whsec_test
        assertThat(WebhookFormats.signature("whsec_test", 1700000000L, "{\"text\":\"hi\"}"))
                .isEqualTo("sha256=add2fc7010ee7aa23f65449ce9240cd32763de7515ca26c43cd1e9d447a5361a");
        assertThat(WebhookFormats.signature("whsec_test", 1700000001L, "{\"text\":\"hi\"}"))
                .isNotEqualTo(WebhookFormats.signature("whsec_test", 1700000000L, "{\"text\":\"hi\"}"));
    }

    static Stream<Arguments> links() {
        return Stream.of(
                Arguments.of("https://crater.example.org", "/jobs/j1", "https://crater.example.org/jobs/j1"),
                Arguments.of("https://crater.example.org/", "/jobs/j1", "https://crater.example.org/jobs/j1"),
                Arguments.of(null, "/jobs/j1", null),
                Arguments.of("https://crater.example.org", "", null),
                Arguments.of(null, "https://elsewhere.example.org/x", "https://elsewhere.example.org/x"));
    }

    @ParameterizedTest(name = "{0} + {1}")
    @MethodSource("links")
    void aLinkIsAbsoluteUnderTheConsolesAddressOrNone(String console, String link, String expected) {
        assertThat(WebhookFormats.link(console, link)).isEqualTo(expected);
    }

    static Stream<Arguments> urls() {
        return Stream.of(
                Arguments.of("https://hooks.slack.com/services/T0/B0/XX", false, null),
                Arguments.of("http://receiver.example.org:8080/hook?x=1", false, null),
                Arguments.of("ftp://files.example.org/hook", false, "only http and https URLs"),
                Arguments.of("file:///etc/passwd", false, "only http and https URLs"),
                Arguments.of("javascript:alert(1)", false, "only http and https URLs"),
                Arguments.of("https:///nohost", false, "a URL with a host"),
                Arguments.of("https://user:pw@example.org/h", false, "no user name or password in the URL"),
                Arguments.of("", false, "an http or https URL"),
                Arguments.of("http://127.0.0.1:9000/h", false, "not a loopback or link-local address"),
                Arguments.of("http://127.8.9.10/h", false, "not a loopback or link-local address"),
                Arguments.of("http://[::1]/h", false, "not a loopback or link-local address"),
                Arguments.of("http://169.254.169.254/latest/meta-data", false, "not a loopback or link-local address"),
                Arguments.of("http://[fe80::1]/h", false, "not a loopback or link-local address"),
                Arguments.of("http://0.0.0.0/h", false, "not a loopback or link-local address"),
                Arguments.of("http://localhost:8080/h", false, "not a loopback or link-local address"),
                Arguments.of("http://j1.apps.localhost/h", false, "not a loopback or link-local address"),
                Arguments.of("http://127.0.0.1:9000/h", true, null),
                Arguments.of("http://localhost:8080/h", true, null));
    }

    @ParameterizedTest(name = "{0} (local allowed: {1})")
    @MethodSource("urls")
    void onlyHttpUrlsAwayFromLoopbackAndLinkLocal(String url, boolean allowLocal, String refusal) {
        assertThat(WebhookUrls.refusal(url, allowLocal)).isEqualTo(refusal);
    }

    @Test
    void aNameResolvingToLoopbackIsRefusedAtDelivery() {
        assertThat(WebhookUrls.resolvedRefusal("localhost", false)).contains("loopback");
        assertThat(WebhookUrls.resolvedRefusal("localhost", true)).isNull();
    }

    @Test
    void theUrlShownAgainStopsAtTheFirstPathSegment() {
        assertThat(WebhookUrls.shown("https://hooks.slack.com/services/T0/B0/XXXX"))
                .isEqualTo("https://hooks.slack.com/services/…");
        assertThat(WebhookUrls.shown("https://open.feishu.cn/open-apis/bot/v2/hook/abc"))
                .isEqualTo("https://open.feishu.cn/open-apis/…");
        assertThat(WebhookUrls.shown("https://oapi.dingtalk.com/robot/send?access_token=secret"))
                .isEqualTo("https://oapi.dingtalk.com/robot/…");
        assertThat(WebhookUrls.shown("https://example.org/hook?token=secret")).isEqualTo("https://example.org/hook?…");
        assertThat(WebhookUrls.shown("http://127.0.0.1:9000")).isEqualTo("http://127.0.0.1:9000/");
    }
}
