package io.crater.install;

import io.crater.platform.ApiException;
import io.smallrye.common.annotation.Blocking;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * The command-line client for anyone to download, like the console's own files: {@code /cli/crater.jar}, its
 * launcher {@code /cli/crater-cli}, {@code /cli/install.sh}, and {@code /api/v1/cli} describing them for the
 * console's profile page. Nothing here needs or reveals an account.
 */
@Path("/")
@Tag(name = "client")
public class ClientResource {

    /** What the console shows: whether the client can be installed from here, and the two lines that do it. */
    public record ClientInfo(
            boolean available, String version, Long sizeBytes, String sha256, String install, String login) {}

    @Inject
    ClientDistribution dist;

    @ConfigProperty(name = "crater.public-url")
    Optional<String> publicUrl;

    @GET
    @Path("/api/v1/cli")
    @Produces("application/json")
    @Blocking
    @Operation(summary = "The command-line client: availability, version, digest and the install command")
    public ClientInfo info(@Context UriInfo uri) {
        String server = server(uri);
        return dist.jar()
                .map(j -> new ClientInfo(
                        true,
                        dist.version(),
                        j.size(),
                        j.sha256(),
                        "curl -fsSL " + server + "/cli/install.sh | sh",
                        "crater login " + server))
                .orElseGet(() -> new ClientInfo(false, dist.version(), null, null, null, "crater login " + server));
    }

    @GET
    @Path("/cli/crater.jar")
    @Produces("application/java-archive")
    @Blocking
    @Operation(summary = "The command-line client's jar (Java 17 or newer: java -jar crater.jar --help)")
    public Response jar() {
        ClientDistribution.Jar j = dist.jar().orElseThrow(ClientResource::notBuilt);
        return Response.ok(j.path().toFile())
                .header("Content-Disposition", "attachment; filename=\"crater.jar\"")
                .header("ETag", "\"" + j.sha256() + "\"")
                .header("X-Checksum-Sha256", j.sha256())
                .build();
    }

    @GET
    @Path("/cli/crater-cli")
    @Produces("text/x-shellscript; charset=utf-8")
    @Operation(summary = "The client's launcher: start-up flags and an AppCDS archive made on first use")
    public String launcher() {
        return dist.launcher();
    }

    @GET
    @Path("/cli/install.sh")
    @Produces("text/x-shellscript; charset=utf-8")
    @Blocking
    @Operation(summary = "Installs the client in ~/.local: curl -fsSL <server>/cli/install.sh | sh")
    public String install(@Context UriInfo uri) {
        ClientDistribution.Jar j = dist.jar().orElseThrow(ClientResource::notBuilt);
        return dist.installScript(server(uri), j);
    }

    /** Only a plain URL goes into a shell script: a forged Host header must not become a command. */
    private static final java.util.regex.Pattern PLAIN_URL =
            java.util.regex.Pattern.compile("https?://[A-Za-z0-9.\\-]+(:[0-9]{1,5})?(/[A-Za-z0-9._~/-]*)?");

    private String server(UriInfo uri) {
        String base = publicUrl.orElse(uri.getBaseUri().toString()).replaceAll("/+$", "");
        if (!PLAIN_URL.matcher(base).matches()) {
            throw ApiException.badRequest(
                    "InvalidRequest",
                    "this server's URL as requested (" + base.length() + " characters) is not a plain http(s) URL;"
                            + " set crater.public-url",
                    java.util.List.of(new io.crater.platform.Problem.FieldError("Host", "not a plain host name")));
        }
        return base;
    }

    private static ApiException notBuilt() {
        return ApiException.notFound(
                "this server was started without the command-line client (build it with mvn package)");
    }
}
