package io.crater.interactive;

import io.crater.identity.CurrentUser;
import io.crater.job.PodAccess;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * How to reach into a job: the terminal's WebSocket path, and the exact {@code ssh} command and
 * {@code ~/.ssh/config} entry (for VS Code Remote-SSH) for each running pod. Whoever may see the job may read it;
 * only the owner gets through ({@code reachable}).
 */
@Path("/api/v1/jobs/{id}/connect")
@Tag(name = "jobs")
@Authenticated
@Produces(MediaType.APPLICATION_JSON)
public class ConnectResource {

    /** One pod's ways in. */
    public record PodEntry(String pod, String terminal, String login, String command, String sshConfig) {}

    /**
     * @param reachable whether the caller may open a terminal or an SSH session (the owner, while it runs)
     * @param sshEnabled whether the gateway listens
     */
    public record Connect(
            String job,
            String state,
            boolean reachable,
            boolean sshEnabled,
            String sshHost,
            int sshPort,
            List<PodEntry> pods) {}

    @Inject
    CurrentUser current;

    @Inject
    PodAccess access;

    @Inject
    SshConfig ssh;

    @Inject
    SshGateway gateway;

    @GET
    @Operation(summary = "The terminal path and the ssh command and config for each running pod of a job")
    public Uni<Connect> connect(@PathParam("id") String id) {
        return current.caller()
                .flatMap(c -> access.reach(id, c).map(r -> {
                    int port = ssh.publicPort().orElse(gateway.port() > 0 ? gateway.port() : ssh.port());
                    String host = ssh.publicHost();
                    List<PodEntry> pods = r.running().stream()
                            .map(ti -> {
                                String login = c.user().username() + "+" + id
                                        + (ti.equals(r.running().get(0)) ? "" : "+" + ti);
                                String alias =
                                        "crater-" + id + (ti.equals(r.running().get(0)) ? "" : "-" + ti);
                                return new PodEntry(
                                        ti,
                                        "/api/v1/jobs/" + id + "/terminal"
                                                + (ti.equals(r.running().get(0)) ? "" : "?pod=" + ti),
                                        login,
                                        "ssh -p " + port + " " + login + "@" + host,
                                        "Host " + alias + "\n  HostName " + host + "\n  Port " + port + "\n  User "
                                                + login + "\n  ServerAliveInterval 30\n");
                            })
                            .toList();
                    return new Connect(
                            id,
                            r.state(),
                            r.owner() && "Running".equals(r.state()) && !pods.isEmpty(),
                            ssh.enabled(),
                            host,
                            port,
                            pods);
                }));
    }
}
