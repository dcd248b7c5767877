package io.crater.images;

import com.fasterxml.jackson.databind.JsonNode;
import io.crater.credential.CredentialService.RegistryLogin;
import io.crater.platform.Json;
import io.crater.policy.ImageReferences;
import io.crater.policy.RegistryChallenge;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import javax.net.ssl.SSLException;

/**
 * Asks a registry whether it has a tag's manifest, as the OCI distribution specification says: {@code HEAD
 * /v2/<name>/manifests/<tag>} accepting OCI indexes and manifests and Docker's manifest lists and v2 manifests; on
 * 401 it follows the challenge (a Bearer token from the realm, with the credential as Basic when there is one, or
 * Basic on the request itself) and asks again. The JDK's HTTP client is asynchronous: no thread waits on the
 * registry. The credential goes in the {@code Authorization} header only, never into an answer or a log.
 */
@ApplicationScoped
class RegistryClient {

    static final String ACCEPT = String.join(
            ", ",
            "application/vnd.oci.image.index.v1+json",
            "application/vnd.oci.image.manifest.v1+json",
            "application/vnd.docker.distribution.manifest.list.v2+json",
            "application/vnd.docker.distribution.manifest.v2+json");

    @Inject
    ImagesConfig config;

    private volatile HttpClient http;

    /** The registry's answer about one tag: {@code result} is ok, not-found, unauthorized or unreachable. */
    record Outcome(String result, String detail, String digest, String mediaType) {
        static Outcome of(String result, String detail) {
            return new Outcome(result, detail, null, null);
        }
    }

    Uni<Outcome> check(ImageReferences.Reference ref, String tag, Optional<RegistryLogin> login) {
        URI manifest = URI.create(base(ref) + "/v2/" + ref.repository() + "/manifests/" + tag);
        String where = ref.canonical() + ":" + tag;
        return send(head(manifest, null))
                .flatMap(r -> r.statusCode() != 401
                        ? Uni.createFrom().item(r)
                        : authorized(ref, manifest, r, login)
                                .flatMap(auth -> auth == null ? Uni.createFrom().item(r) : send(head(manifest, auth))))
                .flatMap(r -> outcome(r, manifest, where, ref, login))
                .onFailure()
                .recoverWithItem(e -> unreachable(ref, e));
    }

    /** The Authorization header the challenge asks for, or null when there is nothing to answer it with. */
    private Uni<String> authorized(
            ImageReferences.Reference ref, URI manifest, HttpResponse<?> r, Optional<RegistryLogin> login) {
        RegistryChallenge challenge = RegistryChallenge.parse(
                r.headers().firstValue("WWW-Authenticate").orElse(null));
        if (challenge != null && challenge.bearer()) {
            HttpRequest.Builder token = HttpRequest.newBuilder(URI.create(challenge.tokenUrl(ref.repository())))
                    .timeout(config.registryTimeout())
                    .header("Accept", "application/json")
                    .GET();
            login.ifPresent(l -> token.header("Authorization", basic(l)));
            return send(token.build()).map(t -> {
                if (t.statusCode() != 200) {
                    throw new Refused(
                            t.statusCode() == 401 || t.statusCode() == 403
                                    ? "the registry's token service refused "
                                            + login.map(l -> "the credential '" + l.name() + "'")
                                                    .orElse("to give a token without a credential")
                                    : "the registry's token service answered HTTP " + t.statusCode());
                }
                JsonNode body = Json.read(new String(t.body(), StandardCharsets.UTF_8), JsonNode.class);
                String value =
                        body.path("token").asText(body.path("access_token").asText(""));
                if (value.isEmpty()) {
                    throw new Refused("the registry's token service answered no token");
                }
                return "Bearer " + value;
            });
        }
        if (challenge != null && challenge.basic() && login.isPresent()) {
            return Uni.createFrom().item(basic(login.get()));
        }
        return Uni.createFrom().nullItem();
    }

    private Uni<Outcome> outcome(
            HttpResponse<byte[]> r,
            URI manifest,
            String where,
            ImageReferences.Reference ref,
            Optional<RegistryLogin> login) {
        int status = r.statusCode();
        if (status == 200) {
            String type = r.headers().firstValue("Content-Type").orElse(null);
            Optional<String> digest = r.headers().firstValue("Docker-Content-Digest");
            if (digest.isPresent()) {
                return Uni.createFrom().item(new Outcome("ok", where + " exists", digest.get(), type));
            }
            return send(get(
                            manifest,
                            r.request().headers().firstValue("Authorization").orElse(null)))
                    .map(g -> g.statusCode() == 200
                            ? new Outcome("ok", where + " exists", sha256(g.body()), type)
                            : Outcome.of(
                                    "unreachable",
                                    "the registry answered HEAD but not GET (HTTP " + g.statusCode() + ")"));
        }
        return Uni.createFrom().item(refusal(status, where, ref, login));
    }

    private static Outcome refusal(
            int status, String where, ImageReferences.Reference ref, Optional<RegistryLogin> login) {
        if (status == 404) {
            return Outcome.of("not-found", "the registry has no manifest " + where);
        }
        if (status == 401 || status == 403) {
            return Outcome.of(
                    "unauthorized",
                    login.map(l -> "the registry refused the credential '" + l.name() + "' (user " + l.username()
                                    + ") for " + where)
                            .orElse("the registry asks for a login for " + where
                                    + " (or has no such repository): store a credential of kind registry for "
                                    + ref.registry()));
        }
        return Outcome.of("unreachable", "the registry answered HTTP " + status + " for " + where);
    }

    private Outcome unreachable(ImageReferences.Reference ref, Throwable e) {
        Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
        if (cause instanceof Refused refused) {
            return Outcome.of("unauthorized", refused.getMessage());
        }
        String host = ref.apiHost();
        String why;
        if (cause instanceof HttpConnectTimeoutException || cause instanceof HttpTimeoutException) {
            why = "no answer from " + host + " within "
                    + config.registryTimeout().toSeconds() + " s";
        } else if (cause instanceof ConnectException && cause.getCause() instanceof UnresolvedAddressException) {
            why = "the name " + host + " does not resolve";
        } else if (cause instanceof ConnectException) {
            why = "cannot connect to " + host + " (connection refused)";
        } else if (cause instanceof SSLException) {
            why = "TLS with " + host + " failed: " + cause.getMessage();
        } else if (cause instanceof java.io.IOException) {
            why = "the connection to " + host + " failed: " + cause.getClass().getSimpleName()
                    + (cause.getMessage() == null ? "" : " " + cause.getMessage());
        } else {
            why = "the registry's answer could not be read: " + cause.getClass().getSimpleName();
        }
        return Outcome.of("unreachable", why);
    }

    /** {@code https://host} or, for loopback and configured registries, {@code http://host}. */
    String base(ImageReferences.Reference ref) {
        boolean plain =
                ref.loopback() || config.plainHttpRegistries().orElse(List.of()).contains(ref.registry());
        return (plain ? "http://" : "https://") + ref.apiHost();
    }

    private HttpRequest head(URI uri, String auth) {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri)
                .timeout(config.registryTimeout())
                .header("Accept", ACCEPT)
                .method("HEAD", HttpRequest.BodyPublishers.noBody());
        if (auth != null) {
            b.header("Authorization", auth);
        }
        return b.build();
    }

    private HttpRequest get(URI uri, String auth) {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri)
                .timeout(config.registryTimeout())
                .header("Accept", ACCEPT)
                .GET();
        if (auth != null) {
            b.header("Authorization", auth);
        }
        return b.build();
    }

    private Uni<HttpResponse<byte[]>> send(HttpRequest request) {
        return Uni.createFrom()
                .completionStage(() -> client().sendAsync(request, HttpResponse.BodyHandlers.ofByteArray()));
    }

    private HttpClient client() {
        HttpClient c = http;
        if (c == null) {
            c = HttpClient.newBuilder()
                    .version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(config.registryTimeout())
                    .followRedirects(HttpClient.Redirect.NEVER)
                    .build();
            http = c;
        }
        return c;
    }

    private static String basic(RegistryLogin l) {
        return "Basic "
                + Base64.getEncoder()
                        .encodeToString((l.username() + ":" + l.secret()).getBytes(StandardCharsets.UTF_8));
    }

    static String sha256(byte[] body) {
        try {
            return "sha256:"
                    + HexFormat.of()
                            .formatHex(MessageDigest.getInstance("SHA-256").digest(body));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A token service's refusal, answered as {@code unauthorized}. */
    private static final class Refused extends RuntimeException {
        Refused(String message) {
            super(message, null, false, false);
        }
    }
}
