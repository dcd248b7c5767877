package io.crater.interactive;

import io.crater.identity.Caller;
import io.crater.identity.CurrentUser;
import io.crater.job.PodAccess;
import io.crater.platform.ApiException;
import io.quarkus.websockets.next.HttpUpgradeCheck;
import io.quarkus.websockets.next.UserData;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.net.URI;
import java.util.List;
import java.util.Map;

/**
 * The checks before a terminal's WebSocket opens, answered with a plain HTTP status since a refused upgrade has
 * no body: 403 for a cross-site page (a cookie-authenticated WebSocket whose {@code Origin} is not Crater's own,
 * which browsers send on every WebSocket and no page can forge), 401 without a valid token, and then
 * {@link PodAccess}'s verdict (403 not the owner, 404 no such job or pod, 409 not running). The pod it resolves
 * travels to {@link TerminalSocket} in the connection's user data.
 */
@ApplicationScoped
public class TerminalUpgrade implements HttpUpgradeCheck {

    static final UserData.TypedKey<PodAccess.Target> TARGET = new UserData.TypedKey<>("crater.terminal.target");
    static final UserData.TypedKey<Caller> CALLER = new UserData.TypedKey<>("crater.terminal.caller");

    @Inject
    CurrentUser users;

    @Inject
    PodAccess access;

    @Override
    public boolean appliesTo(String endpointId) {
        return TerminalSocket.ID.equals(endpointId);
    }

    @Override
    public Uni<CheckResult> perform(HttpUpgradeContext ctx) {
        var req = ctx.httpRequest();
        if (!sameOrigin(req.getHeader("Origin"), req.getHeader("Host"))) {
            return CheckResult.rejectUpgrade(403, reason("CrossOriginWebSocket"));
        }
        String address =
                req.remoteAddress() == null ? "unknown" : req.remoteAddress().hostAddress();
        return ctx.securityIdentity()
                .map(id -> new Caller(users.userOf(id), address))
                .flatMap(caller -> access.resolveShell(
                                ctx.pathParam("id"),
                                req.getParam("pod"),
                                caller,
                                "true".equals(req.getParam("asAdmin")))
                        .map(target -> {
                            ctx.userData().put(TARGET, target);
                            ctx.userData().put(CALLER, caller);
                            return CheckResult.permitUpgradeSync();
                        }))
                .onFailure()
                .recoverWithItem(e -> CheckResult.rejectUpgradeSync(status(e), reason(code(e))));
    }

    /**
     * A request without {@code Origin} comes from a program, not a page; one with it must come from the host it
     * was sent to.
     */
    static boolean sameOrigin(String origin, String host) {
        if (origin == null) {
            return true;
        }
        if (host == null || origin.equals("null")) {
            return false;
        }
        try {
            URI o = URI.create(origin);
            String originHost = o.getPort() < 0 ? o.getHost() : o.getHost() + ":" + o.getPort();
            return host.equalsIgnoreCase(originHost);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static int status(Throwable e) {
        if (e instanceof ApiException a) {
            return a.status();
        }
        if (e instanceof io.quarkus.security.UnauthorizedException
                || e instanceof io.quarkus.security.AuthenticationFailedException) {
            return 401;
        }
        return 500;
    }

    private static String code(Throwable e) {
        if (e instanceof ApiException a) {
            return a.code();
        }
        return status(e) == 401 ? "Unauthenticated" : "InternalError";
    }

    /** The refusal's code in a header, since the answer to a refused upgrade has no body. */
    private static Map<String, List<String>> reason(String code) {
        return Map.of("X-Crater-Problem", List.of(code));
    }
}
