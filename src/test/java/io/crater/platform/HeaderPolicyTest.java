package io.crater.platform;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class HeaderPolicyTest {

    static final String NONE = "(absent)";

    static Stream<Arguments> answers() {
        return Stream.of(
                // name, path, type, secure, console, expected CSP, expected Cache-Control
                Arguments.of(
                        "the console's index",
                        "/",
                        "text/html;charset=UTF-8",
                        false,
                        true,
                        HeaderPolicy.CONSOLE_CSP,
                        HeaderPolicy.REVALIDATE),
                Arguments.of(
                        "a console route answered with the index",
                        "/jobs/42",
                        "text/html",
                        false,
                        true,
                        HeaderPolicy.CONSOLE_CSP,
                        HeaderPolicy.REVALIDATE),
                Arguments.of(
                        "a hashed script",
                        "/assets/index-B1x_9k-Q.js",
                        "text/javascript",
                        false,
                        true,
                        HeaderPolicy.FRAMING_ONLY_CSP,
                        HeaderPolicy.HASHED_ASSET),
                Arguments.of(
                        "a hashed style sheet",
                        "/assets/index-Cq3mZ8aa.css",
                        "text/css",
                        false,
                        true,
                        HeaderPolicy.FRAMING_ONLY_CSP,
                        HeaderPolicy.HASHED_ASSET),
                Arguments.of(
                        "an unhashed file under assets",
                        "/assets/logo.svg",
                        "image/svg+xml",
                        false,
                        true,
                        HeaderPolicy.FRAMING_ONLY_CSP,
                        HeaderPolicy.REVALIDATE),
                Arguments.of(
                        "a nested path under assets is not a build file",
                        "/assets/a/b-12345678.js",
                        "text/javascript",
                        false,
                        true,
                        HeaderPolicy.FRAMING_ONLY_CSP,
                        HeaderPolicy.REVALIDATE),
                Arguments.of(
                        "the favicon",
                        "/favicon.svg",
                        "image/svg+xml",
                        false,
                        true,
                        HeaderPolicy.FRAMING_ONLY_CSP,
                        HeaderPolicy.REVALIDATE),
                Arguments.of(
                        "an API answer keeps its own caching",
                        "/api/v1/jobs",
                        "application/json",
                        false,
                        false,
                        HeaderPolicy.BACKEND_CSP,
                        NONE),
                Arguments.of(
                        "an uploaded page read over WebDAV is sandboxed",
                        "/dav/user/page.html",
                        "text/html",
                        false,
                        false,
                        HeaderPolicy.BACKEND_CSP,
                        NONE),
                Arguments.of(
                        "Swagger UI keeps its inline scripts",
                        "/q/swagger-ui/",
                        "text/html",
                        false,
                        false,
                        HeaderPolicy.FRAMING_ONLY_CSP,
                        NONE),
                Arguments.of(
                        "an answer without a type",
                        "/api/v1/files/user/a",
                        null,
                        false,
                        false,
                        HeaderPolicy.BACKEND_CSP,
                        NONE));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("answers")
    void eachKindOfAnswerGetsItsHeaders(
            String name, String path, String type, boolean secure, boolean console, String csp, String cache) {
        Map<String, String> h = HeaderPolicy.headers(path, type, secure, console);
        assertThat(h).containsEntry("X-Content-Type-Options", "nosniff");
        assertThat(h).containsEntry("Referrer-Policy", "strict-origin-when-cross-origin");
        assertThat(h.get("Content-Security-Policy")).isEqualTo(csp).contains("frame-ancestors 'none'");
        assertThat(h.getOrDefault("Cache-Control", NONE)).isEqualTo(cache);
        assertThat(h).doesNotContainKey("Strict-Transport-Security");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("answers")
    void overTlsEveryAnswerAsksForTlsNextTime(
            String name, String path, String type, boolean secure, boolean console, String csp, String cache) {
        assertThat(HeaderPolicy.headers(path, type, true, console))
                .containsEntry("Strict-Transport-Security", HeaderPolicy.HSTS);
    }

    @org.junit.jupiter.api.Test
    void theConsolesPolicyAllowsOnlyItsOwnScriptsAndNoPlugins() {
        assertThat(HeaderPolicy.CONSOLE_CSP)
                .contains("script-src 'self'", "object-src 'none'", "base-uri 'self'")
                .doesNotContain("unsafe-eval")
                .doesNotContain("script-src 'self' 'unsafe-inline'");
    }

    @org.junit.jupiter.api.Test
    void onAnAppOriginCratersOwnAnswersAreLockedDownAndTheAppsGetOnlyHsts() {
        assertThat(HeaderPolicy.appOwn(false))
                .containsEntry("X-Content-Type-Options", "nosniff")
                .containsEntry("Referrer-Policy", "no-referrer")
                .containsEntry("Cache-Control", "no-store")
                .containsEntry("Content-Security-Policy", HeaderPolicy.BACKEND_CSP)
                .doesNotContainKey("Strict-Transport-Security");
        assertThat(HeaderPolicy.appOwn(true)).containsEntry("Strict-Transport-Security", "max-age=31536000");
        // An app frames itself and runs its own scripts: nothing the console's policy would forbid is added.
        assertThat(HeaderPolicy.appProxied(false)).isEmpty();
        assertThat(HeaderPolicy.appProxied(true))
                .containsOnlyKeys("Strict-Transport-Security")
                .containsEntry("Strict-Transport-Security", "max-age=31536000");
    }
}
