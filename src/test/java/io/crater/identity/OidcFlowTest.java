package io.crater.identity;

import static io.crater.Api.admin;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jose.jwk.JWKSet;
import io.crater.Db;
import io.crater.platform.ApiException;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import jakarta.inject.Inject;
import java.net.CookieManager;
import java.net.CookiePolicy;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Sign-in through a real OpenID provider (npm's oidc-provider, started by the test): the authorization code flow
 * with PKCE walked with a real HTTP client through the provider's own sign-in and consent pages; the user created
 * and linked by issuer and subject; group claims making them an account admin, then a member, then nothing, while a
 * hand-granted membership stays; the console's session cookies and CSRF rules as for a password sign-in; a state
 * from another browser, a replayed one, a taken username and a refusal at the provider refused; a tampered, expired
 * or foreign ID token of the provider refused. Shares the boot of {@link LdapFlowTest}.
 */
@QuarkusTest
@TestProfile(LdapFlowTest.Directory.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class OidcFlowTest {

    static final String CLIENT_ID = "crater-console";
    static final String CLIENT_SECRET = "sso-client-secret-2026";
    static final String PROVIDER = "corp-sso";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern ACTION = Pattern.compile("<form[^>]*action=\"([^\"]+)\"");

    static OidcProvider provider;

    @Inject
    OidcLogin login;

    @Inject
    OidcProviders providers;

    static String crater() {
        return "http://127.0.0.1:" + RestAssured.port;
    }

    static String callbackUrl() {
        return crater() + "/api/v1/auth/oidc/" + PROVIDER + "/callback";
    }

    static Map<String, Object> person(String username, String name, String email, List<String> groups) {
        Map<String, Object> m = new HashMap<>();
        m.put("preferred_username", username);
        m.put("name", name);
        m.put("email", email);
        m.put("email_verified", true);
        m.put("groups", groups);
        return m;
    }

    static Map<String, Object> users(List<String> oliviaGroups, String oliviaName) {
        return Map.of(
                "olivia-sub", person("olivia", oliviaName, "olivia@example.org", oliviaGroups),
                "taker-sub", person("sso-local", "Not The Local One", "taker@example.org", List.of("sso-admins")));
    }

    @BeforeEach
    void provider() throws Exception {
        if (provider == null) {
            String issuer =
                    ConfigProvider.getConfig().getValue("crater.oidc.providers." + PROVIDER + ".issuer", String.class);
            provider = OidcProvider.start(
                    URI.create(issuer).getPort(),
                    Map.of(
                            "client_id", CLIENT_ID,
                            "client_secret", CLIENT_SECRET,
                            "redirect_uris", List.of(callbackUrl())),
                    users(List.of("sso-admins"), "Olivia Newton"));
        }
    }

    @AfterAll
    static void stop() {
        if (provider != null) {
            provider.close();
            provider = null;
        }
    }

    /** A browser: its own cookies, redirects followed by hand. */
    static final class Browser {
        final CookieManager cookies = new CookieManager(null, CookiePolicy.ACCEPT_ALL);
        final HttpClient http = HttpClient.newBuilder()
                .cookieHandler(cookies)
                .followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(Duration.ofSeconds(5))
                .build();

        HttpResponse<String> get(String url, String accept) throws Exception {
            return http.send(
                    HttpRequest.newBuilder(URI.create(url))
                            .header("Accept", accept)
                            .timeout(Duration.ofSeconds(20))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
        }

        HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
            return http.send(request.timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
        }

        HttpResponse<String> postForm(String url, Map<String, String> form) throws Exception {
            String body = form.entrySet().stream()
                    .map(e -> e.getKey() + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                    .collect(Collectors.joining("&"));
            return send(HttpRequest.newBuilder(URI.create(url))
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .header("Accept", "text/html")
                    .POST(HttpRequest.BodyPublishers.ofString(body)));
        }

        /**
         * Follows the provider's redirects and fills its sign-in (as {@code login}) and consent pages, until it
         * sends the browser to {@code stopAt}; returns that URL, not yet opened.
         */
        String walk(String url, String login, String stopAt) throws Exception {
            String next = url;
            for (int step = 0; step < 20; step++) {
                if (next.startsWith(stopAt)) {
                    return next;
                }
                HttpResponse<String> r = get(next, "text/html");
                if (r.statusCode() / 100 == 3) {
                    next = URI.create(next)
                            .resolve(r.headers().firstValue("Location").orElseThrow())
                            .toString();
                    continue;
                }
                assertThat(r.statusCode()).as("%s answered %s", next, r.body()).isEqualTo(200);
                Matcher action = ACTION.matcher(r.body());
                assertThat(action.find()).as("a form on %s", r.body()).isTrue();
                String submit = URI.create(next).resolve(action.group(1)).toString();
                HttpResponse<String> posted = r.body().contains("value=\"login\"")
                        ? postForm(submit, Map.of("prompt", "login", "login", login, "password", "any"))
                        : postForm(submit, Map.of("prompt", "consent"));
                assertThat(posted.statusCode())
                        .as("%s answered %s", submit, posted.body())
                        .isEqualTo(303);
                next = URI.create(submit)
                        .resolve(posted.headers().firstValue("Location").orElseThrow())
                        .toString();
            }
            throw new AssertionError("the provider never sent the browser to " + stopAt);
        }

        /** Starts at Crater, walks through the provider; returns the callback URL with the code and state. */
        String toCallback(String login, String returnTo) throws Exception {
            HttpResponse<String> start = get(
                    crater() + "/api/v1/auth/oidc/" + PROVIDER + "/start?returnTo="
                            + URLEncoder.encode(returnTo, StandardCharsets.UTF_8),
                    "text/html");
            assertThat(start.statusCode()).as(start.body()).isEqualTo(303);
            String authorize = start.headers().firstValue("Location").orElseThrow();
            assertThat(authorize)
                    .startsWith(provider.issuer() + "/auth?")
                    .contains("code_challenge_method=S256", "code_challenge=", "nonce=", "state=")
                    .contains("client_id=" + CLIENT_ID)
                    .doesNotContain(CLIENT_SECRET);
            return walk(authorize, login, callbackUrl());
        }

        String cookie(String name) {
            return cookies.getCookieStore().getCookies().stream()
                    .filter(c -> c.getName().equals(name) && !c.getValue().isEmpty())
                    .map(java.net.HttpCookie::getValue)
                    .findFirst()
                    .orElse(null);
        }
    }

    static JsonNode json(HttpResponse<String> r) throws Exception {
        return JSON.readTree(r.body());
    }

    /** Signs in through the provider in a new browser and checks that the console was sent on. */
    static Browser signIn(String login) throws Exception {
        Browser b = new Browser();
        HttpResponse<String> done = b.get(b.toCallback(login, "/jobs"), "text/html");
        assertThat(done.statusCode()).as(done.body()).isEqualTo(303);
        assertThat(done.headers().firstValue("Location").orElseThrow()).endsWith("/jobs");
        return b;
    }

    @Test
    @Order(1)
    void theSignInPageListsTheProvidersWithoutSecrets() {
        String body = given().get("/api/v1/auth/oidc/providers")
                .then()
                .statusCode(200)
                .extract()
                .asString();
        assertThat(body)
                .isEqualTo("{\"items\":[{\"name\":\"corp-sso\",\"displayName\":\"Corp SSO\"}]}")
                .doesNotContain(CLIENT_SECRET);
        given().get("/api/v1/auth/oidc/nope/start").then().statusCode(404).contentType("application/problem+json");
    }

    @Test
    @Order(2)
    void theCodeFlowCreatesTheUserLinksThemAndMapsTheirGroups() throws Exception {
        admin().body(Map.of("slug", "sso-lab", "name", "SSO Lab"))
                .post("/api/v1/accounts")
                .then()
                .statusCode(201);
        admin().body(Map.of("slug", "sso-vision", "name", "SSO Vision"))
                .post("/api/v1/accounts")
                .then()
                .statusCode(201);
        Browser b = new Browser();
        String callback = b.toCallback("olivia-sub", "/jobs");
        assertThat(b.cookie(OidcResource.STATE_COOKIE)).isNotNull();
        HttpResponse<String> done = b.get(callback, "text/html");
        assertThat(done.statusCode()).as(done.body()).isEqualTo(303);
        assertThat(done.headers().firstValue("Location").orElseThrow()).isEqualTo(crater() + "/jobs");
        List<String> setCookies = done.headers().allValues("Set-Cookie");
        assertThat(setCookies)
                .anySatisfy(c -> assertThat(c)
                        .startsWith(AuthResource.ACCESS_COOKIE + "=")
                        .contains("Path=/;", "HttpOnly", "SameSite=Strict"))
                .anySatisfy(c -> assertThat(c)
                        .startsWith(AuthResource.REFRESH_COOKIE + "=")
                        .contains("Path=" + AuthResource.REFRESH_PATH, "HttpOnly", "SameSite=Strict"));
        assertThat(b.cookie(OidcResource.STATE_COOKIE))
                .as("the state cookie is cleared")
                .isNull();

        HttpResponse<String> me = b.get(crater() + "/api/v1/auth/me", "application/json");
        assertThat(me.statusCode()).isEqualTo(200);
        assertThat(json(me).get("username").asText()).isEqualTo("olivia");
        assertThat(json(me).get("displayName").asText()).isEqualTo("Olivia Newton");
        admin().get("/api/v1/users/olivia")
                .then()
                .statusCode(200)
                .body("email", org.hamcrest.Matchers.equalTo("olivia@example.org"));
        assertThat(Db.count("SELECT count(*) FROM external_identities e JOIN users u ON u.id = e.user_id"
                        + " WHERE u.username = 'olivia' AND e.provider = 'oidc:corp-sso' AND e.issuer = '"
                        + provider.issuer() + "' AND e.subject = 'olivia-sub'"))
                .isEqualTo(1);
        assertThat(Db.count("SELECT count(*) FROM users WHERE username = 'olivia' AND password_hash IS NULL"))
                .isEqualTo(1);
        assertThat(LdapFlowTest.grants("olivia")).isEqualTo(Map.of("sso-lab", "admin/oidc:corp-sso"));
        HttpResponse<String> members = b.get(crater() + "/api/v1/accounts/sso-lab/members", "application/json");
        assertThat(members.statusCode())
                .as("an account admin reads the members")
                .isEqualTo(200);
        assertThat(members.body()).contains("\"grantedBy\":\"oidc:corp-sso\"");

        // the session is a password sign-in's: cookie mutations need the CSRF header
        HttpRequest.Builder mutation = HttpRequest.newBuilder(URI.create(crater() + "/api/v1/me/tokens"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"\"}"));
        HttpResponse<String> refused = b.send(mutation);
        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(json(refused).get("code").asText()).isEqualTo("CsrfCheckFailed");
        HttpResponse<String> checked = b.send(HttpRequest.newBuilder(URI.create(crater() + "/api/v1/me/tokens"))
                .header("Content-Type", "application/json")
                .header("X-Requested-With", "crater")
                .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"\"}")));
        assertThat(checked.statusCode()).as(checked.body()).isEqualTo(400);
        HttpResponse<String> refresh = b.send(HttpRequest.newBuilder(URI.create(crater() + "/api/v1/auth/refresh"))
                .header("X-Requested-With", "crater")
                .POST(HttpRequest.BodyPublishers.noBody()));
        assertThat(refresh.statusCode())
                .as("the refresh cookie works as a password sign-in's")
                .isEqualTo(200);
    }

    @Test
    @Order(3)
    void groupsFollowTheClaimAtEachSignInAndHandGrantedMembershipsStay() throws Exception {
        admin().body(Map.of("role", "member"))
                .put("/api/v1/accounts/sso-vision/members/olivia")
                .then()
                .statusCode(200);
        provider.users(users(List.of("sso-users"), "Olivia N. John"));
        signIn("olivia-sub");
        assertThat(LdapFlowTest.grants("olivia"))
                .isEqualTo(Map.of("sso-lab", "member/oidc:corp-sso", "sso-vision", "member/manual"));
        admin().get("/api/v1/users/olivia").then().body("displayName", org.hamcrest.Matchers.equalTo("Olivia N. John"));

        provider.users(users(List.of(), "Olivia N. John"));
        signIn("olivia-sub");
        assertThat(LdapFlowTest.grants("olivia")).isEqualTo(Map.of("sso-vision", "member/manual"));
        assertThat(Db.count("SELECT count(*) FROM users WHERE username = 'olivia'"))
                .as("later sign-ins find the link and create nobody")
                .isEqualTo(1);
    }

    @Test
    @Order(4)
    void aStateFromAnotherBrowserOrUsedTwiceIsRefused() throws Exception {
        provider.users(users(List.of("sso-admins"), "Olivia Newton"));
        Browser mine = new Browser();
        String callback = mine.toCallback("olivia-sub", "/");
        Browser other = new Browser();
        HttpResponse<String> foreign = other.get(callback, "application/json");
        assertThat(foreign.statusCode()).isEqualTo(400);
        assertThat(foreign.headers().firstValue("Content-Type").orElseThrow()).startsWith("application/problem+json");
        assertThat(json(foreign).get("code").asText()).isEqualTo("InvalidSignInState");
        assertThat(foreign.headers().allValues("Set-Cookie")).noneMatch(c -> c.startsWith("crater_access="));

        String state = mine.cookie(OidcResource.STATE_COOKIE);
        HttpResponse<String> altered = mine.get(callback.replace("state=", "state=x"), "application/json");
        assertThat(altered.statusCode()).isEqualTo(400);
        assertThat(json(altered).get("code").asText()).isEqualTo("InvalidSignInState");

        // the altered attempt cleared the cookie; the browser that started it still holds the state it was given
        HttpRequest.Builder withState = HttpRequest.newBuilder(URI.create(callback))
                .header("Accept", "application/json")
                .header("Cookie", OidcResource.STATE_COOKIE + "=" + state);
        HttpResponse<String> first =
                HttpClient.newHttpClient().send(withState.build(), HttpResponse.BodyHandlers.ofString());
        assertThat(first.statusCode()).as(first.body()).isEqualTo(303);
        HttpResponse<String> replay =
                HttpClient.newHttpClient().send(withState.build(), HttpResponse.BodyHandlers.ofString());
        assertThat(replay.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(replay.body()).get("code").asText()).isEqualTo("InvalidSignInState");
    }

    @Test
    @Order(5)
    void aProvidersNamesakeOfALocalUserIsRefusedAndTakesNothingOver() throws Exception {
        admin().body(Map.of("username", "sso-local", "displayName", "Local", "password", "Local-sso-2026"))
                .post("/api/v1/users")
                .then()
                .statusCode(201);
        Browser b = new Browser();
        HttpResponse<String> done = b.get(b.toCallback("taker-sub", "/"), "text/html");
        assertThat(done.statusCode()).isEqualTo(303);
        assertThat(done.headers().firstValue("Location").orElseThrow())
                .isEqualTo(crater() + "/login?signInError=UsernameTaken");
        assertThat(done.headers().allValues("Set-Cookie")).noneMatch(c -> c.startsWith("crater_access="));
        assertThat(Db.count("SELECT count(*) FROM external_identities WHERE subject = 'taker-sub'"))
                .isZero();
        assertThat(LdapFlowTest.grants("sso-local")).isEmpty();
        io.crater.Api.login("sso-local", "Local-sso-2026");
    }

    @Test
    @Order(6)
    void aSignInRefusedAtTheProviderIsRefusedHere() throws Exception {
        Browser b = new Browser();
        HttpResponse<String> start = b.get(crater() + "/api/v1/auth/oidc/" + PROVIDER + "/start", "text/html");
        String next = start.headers().firstValue("Location").orElseThrow();
        HttpResponse<String> r;
        while ((r = b.get(next, "text/html")).statusCode() == 303) {
            next = URI.create(next)
                    .resolve(r.headers().firstValue("Location").orElseThrow())
                    .toString();
        }
        Matcher abort = Pattern.compile("href=\"([^\"]*/abort)\"").matcher(r.body());
        assertThat(abort.find()).as(r.body()).isTrue();
        String callback = b.walk(URI.create(next).resolve(abort.group(1)).toString(), "olivia-sub", callbackUrl());
        assertThat(callback).contains("error=access_denied");
        HttpResponse<String> refused = b.get(callback, "application/json");
        assertThat(refused.statusCode()).isEqualTo(401);
        assertThat(json(refused).get("code").asText()).isEqualTo("ProviderRefused");
        assertThat(json(refused).get("detail").asText()).contains("access_denied");
    }

    /** An ID token the provider issued to Crater's client, got by walking the flow as that client. */
    static String idTokenFromTheProvider(String nonce) throws Exception {
        String verifier = "test-verifier-" + "x".repeat(40);
        String challenge = Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString(
                        MessageDigest.getInstance("SHA-256").digest(verifier.getBytes(StandardCharsets.US_ASCII)));
        String authorize = provider.issuer() + "/auth?response_type=code&client_id=" + CLIENT_ID + "&redirect_uri="
                + URLEncoder.encode(callbackUrl(), StandardCharsets.UTF_8) + "&scope=openid%20groups&state=s1&nonce="
                + nonce + "&code_challenge=" + challenge + "&code_challenge_method=S256";
        String back = new Browser().walk(authorize, "olivia-sub", callbackUrl());
        Matcher code = Pattern.compile("[?&]code=([^&]+)").matcher(back);
        assertThat(code.find()).isTrue();
        String basic =
                Base64.getEncoder().encodeToString((CLIENT_ID + ":" + CLIENT_SECRET).getBytes(StandardCharsets.UTF_8));
        HttpResponse<String> token = new Browser()
                .send(HttpRequest.newBuilder(URI.create(provider.issuer() + "/token"))
                        .header("Authorization", "Basic " + basic)
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .POST(HttpRequest.BodyPublishers.ofString("grant_type=authorization_code&code=" + code.group(1)
                                + "&redirect_uri=" + URLEncoder.encode(callbackUrl(), StandardCharsets.UTF_8)
                                + "&code_verifier=" + verifier)));
        assertThat(token.statusCode()).as(token.body()).isEqualTo(200);
        return json(token).get("id_token").asText();
    }

    @Test
    @Order(7)
    void aTamperedExpiredOrForeignIdTokenOfTheProviderIsRefused() throws Exception {
        String idToken = idTokenFromTheProvider("n-123");
        OidcProviders.Metadata m = providers.metadata(PROVIDER).await().atMost(Duration.ofSeconds(20));
        assertThat(login.validated(PROVIDER, m, idToken, "n-123").await().atMost(Duration.ofSeconds(20)))
                .containsEntry("sub", "olivia-sub")
                .containsEntry("iss", provider.issuer());

        String[] parts = idToken.split("\\.");
        String payload = new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8);
        String forged = parts[0] + "."
                + Base64.getUrlEncoder()
                        .withoutPadding()
                        .encodeToString(
                                payload.replace("olivia-sub", "admin-sub").getBytes(StandardCharsets.UTF_8))
                + "." + parts[2];
        assertThatThrownBy(() ->
                        login.validated(PROVIDER, m, forged, "n-123").await().atMost(Duration.ofSeconds(20)))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.status()).isEqualTo(401);
                    assertThat(e.code()).isEqualTo("InvalidIdToken");
                    assertThat(e.getMessage()).contains("signature does not verify");
                });
        assertThatThrownBy(() -> login.validated(PROVIDER, m, idToken, "another-nonce")
                        .await()
                        .atMost(Duration.ofSeconds(20)))
                .isInstanceOfSatisfying(
                        ApiException.class, e -> assertThat(e.getMessage()).contains("nonce"));

        JWKSet keys = JWKSet.load(URI.create(m.jwksUri()).toURL());
        IdTokens.Expected expected =
                new IdTokens.Expected(provider.issuer(), CLIENT_ID, "n-123", Duration.ofSeconds(60));
        assertThat(IdTokens.validate(idToken, keys, expected, Instant.now()).getSubject())
                .isEqualTo("olivia-sub");
        assertThatThrownBy(() ->
                        IdTokens.validate(idToken, keys, expected, Instant.now().plus(Duration.ofHours(2))))
                .isInstanceOf(IdTokens.Refused.class)
                .hasMessageContaining("expired");
        assertThatThrownBy(() -> IdTokens.validate(
                        idToken,
                        keys,
                        new IdTokens.Expected(provider.issuer(), "another-client", "n-123", Duration.ofSeconds(60)),
                        Instant.now()))
                .isInstanceOf(IdTokens.Refused.class)
                .hasMessageContaining("not for this client");
        assertThatThrownBy(() -> IdTokens.validate(
                        idToken,
                        keys,
                        new IdTokens.Expected("https://other.example.org", CLIENT_ID, "n-123", Duration.ofSeconds(60)),
                        Instant.now()))
                .isInstanceOf(IdTokens.Refused.class)
                .hasMessageContaining("issued by");
    }
}
