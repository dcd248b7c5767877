package io.crater.interactive;

import java.util.Optional;

/**
 * How each kind's web app is served behind the proxy (DESIGN.md §5). JupyterLab runs with base URL {@code /} on
 * its own origin and takes its token (from the job's Secret) in an {@code Authorization: token} header the proxy
 * adds; code-server runs {@code --auth none} behind Crater's NetworkPolicy and checks WebSocket Origin against the
 * Host the proxy forwards unchanged. Any other port of a job is reached under {@code /port/<n>/} with that prefix
 * stripped (TensorBoard, Gradio, the Ray dashboard).
 *
 * @param readiness the path that answers once the app is up ("Open" is offered only then)
 * @param start where the browser lands after entering
 * @param token whether the proxy adds the job's Jupyter token
 */
public record AppProfile(int port, String readiness, String start, boolean token) {

    /** Lands on Jupyter's root, which each Jupyter sends to its own default page (/lab, the classic /tree). */
    public static final AppProfile JUPYTER = new AppProfile(8888, "/api", "/", true);

    public static final AppProfile WEBIDE = new AppProfile(8080, "/healthz", "/", false);

    /** TensorBoard on its own origin needs no path prefix; {@code /data/logdir} answers once it serves. */
    public static final AppProfile TENSORBOARD = new AppProfile(6006, "/data/logdir", "/", false);

    /** The app a kind serves on its own, if any. */
    public static Optional<AppProfile> of(String kind) {
        return switch (kind) {
            case "jupyter" -> Optional.of(JUPYTER);
            case "webide" -> Optional.of(WEBIDE);
            case "tensorboard" -> Optional.of(TENSORBOARD);
            default -> Optional.empty();
        };
    }

    /** A generic port: reached under {@code /port/<n>/}, ready when it answers at all. */
    public static AppProfile port(int n) {
        return new AppProfile(n, "/", "/port/" + n + "/", false);
    }
}
