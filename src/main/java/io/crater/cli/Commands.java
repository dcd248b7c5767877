package io.crater.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/** Every top-level verb, in the order help lists them; a run builds only the one it needs. */
final class Commands {

    private Commands() {}

    static Map<String, Supplier<Object>> all() {
        Map<String, Supplier<Object>> m = new LinkedHashMap<>();
        m.put("login", AuthCommands.Login::new);
        m.put("logout", AuthCommands.Logout::new);
        m.put("whoami", AuthCommands.Whoami::new);
        m.put("context", ContextCommands::new);
        m.put("account", AccountCommands::new);
        m.put("ssh-key", ProfileCommands.SshKey::new);
        m.put("token", ProfileCommands.Token::new);
        m.put("__warmup", Warmup::new);
        return m;
    }
}
