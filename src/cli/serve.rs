//! `roots serve`: playtest tables in the browser (`roots::serve`).

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;
use roots::serve::{Config, Hub};

use super::Failure;

#[derive(Args, Debug)]
#[command(after_help = "Examples:
  roots serve                                  every built-in variant, on 127.0.0.1:8432
  roots serve rgr-artifacts --players human,human,greedy
                                               open one table now and print its seats' links
  roots serve mine.toml --dir playtests        your variant; tables kept in playtests/
Tables are kept in --dir (each a record like `roots play` writes, resumable and
viewable); a server started again on the same directory picks them all up, and
with --players goes on with that table's unfinished game rather than opening another.")]
pub struct ServeArgs {
    /// Variants a host may open (built-in names or files); every built-in
    /// variant is offered after them.
    #[arg(value_name = "VARIANT")]
    variants: Vec<String>,

    /// The address to listen on. Anything but 127.0.0.1 (or ::1) lets other
    /// machines reach the server: only do so on a network you trust.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1")]
    listen: IpAddr,

    /// The port (0: any free one).
    #[arg(long, default_value_t = 8432)]
    port: u16,

    /// Where the tables' records, secrets and answers are kept.
    #[arg(long, value_name = "DIR", default_value = "roots-tables")]
    dir: PathBuf,

    /// Open one table of the first VARIANT at start, with these seats
    /// (`human` or a bot), and print each person's link. An unfinished
    /// table of that variant with the same seats in --dir is picked up
    /// instead (its links stay valid).
    #[arg(long, value_name = "P1,P2,...", value_delimiter = ',')]
    players: Vec<String>,

    /// Let the host seat external programs (`cmd:PROGRAM`), which run on
    /// this machine with your rights.
    #[arg(long)]
    allow_cmd: bool,

    /// Seconds an external player has for each decision.
    #[arg(long, value_name = "SECS", default_value_t = 10.0)]
    cmd_timeout: f64,

    /// Seconds a connection has to send a request's head; an idle
    /// kept-alive connection is closed after as long.
    #[arg(long, value_name = "SECS", default_value_t = 10.0, value_parser = positive_secs)]
    head_timeout: f64,

    /// Seconds a request's body has to arrive once its head has (408).
    #[arg(long, value_name = "SECS", default_value_t = 10.0, value_parser = positive_secs)]
    body_timeout: f64,

    /// Connections open at once; more are answered 503.
    #[arg(long, value_name = "N", default_value_t = 256, value_parser = clap::value_parser!(u32).range(1..))]
    max_connections: u32,

    /// Wrong keys (or unknown tables) an address may try before it is
    /// answered 429; one more is allowed every 10 seconds.
    #[arg(long, value_name = "N", default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..))]
    wrong_keys: u32,
}

fn positive_secs(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s > 0.0 && s <= 86_400.0 => Ok(s),
        _ => Err(format!(
            "expected seconds from 0 to 86400 (more than 0), found \"{text}\""
        )),
    }
}

pub fn run(args: ServeArgs) -> Result<(), Failure> {
    let mut variants = Vec::new();
    for v in &args.variants {
        variants.push((v.clone(), super::load_variant(v, &[])?));
    }
    for name in roots::variant::resolve::builtin_names() {
        if !variants.iter().any(|(n, _)| n == name) {
            let loaded = roots::variant::load(name).map_err(|_| {
                Failure::invalid(format!("error: built-in variant `{name}` does not load"))
            })?;
            variants.push((name.to_string(), loaded.rules));
        }
    }
    let first = args
        .variants
        .first()
        .cloned()
        .unwrap_or_else(|| "standard".to_string());
    let cfg = Config {
        dir: args.dir.clone(),
        variants,
        allow_cmd: args.allow_cmd,
        cmd_timeout_ms: super::args::timeout_ms(args.cmd_timeout),
        limits: roots::serve::Limits {
            head_timeout: std::time::Duration::from_secs_f64(args.head_timeout),
            body_timeout: std::time::Duration::from_secs_f64(args.body_timeout),
            max_connections: args.max_connections as usize,
            wrong_keys: args.wrong_keys,
            ..roots::serve::Limits::default()
        },
    };
    let (hub, problems) = Hub::open(cfg).map_err(|e| Failure::io(format!("error: {e}")))?;
    for p in &problems {
        super::err(&format!("warning: a table was not picked up: {p}\n"));
    }
    let picked_up = hub.ids().len() as u64;
    // The table of --players is opened before the server starts, so that a
    // mistake in it is the only thing said, not said after the host's link.
    // Started again on the same directory, the server picks up that table's
    // unfinished game (same variant, same seats) instead of opening another:
    // its links stay the ones already handed out.
    let opened = if args.players.is_empty() {
        None
    } else if let Some(links) = hub.unfinished_table(&first, &args.players) {
        Some((links, true))
    } else {
        Some((
            hub.open_table(&first, &args.players)
                .map_err(|e| Failure::invalid(format!("error: --players: {e}")))?,
            false,
        ))
    };
    let hub = Arc::new(hub);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::io(format!("error: cannot start the server: {e}")))?;
    let addr = SocketAddr::new(args.listen, args.port);
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|e| Failure::io(format!("error: cannot listen on {addr}: {e}")))?;
        let bound = listener
            .local_addr()
            .map_err(|e| Failure::io(format!("error: {e}")))?;
        if !args.listen.is_loopback() {
            super::err(&format!(
                "warning: listening on {bound}: other machines can reach this server; anyone with a link can play its seat, and the host's link opens tables\n"
            ));
        }
        let host = if args.listen.is_unspecified() {
            SocketAddr::new(IpAddr::from([127, 0, 0, 1]), bound.port())
        } else {
            bound
        };
        let base = format!("http://{host}");
        super::out(&format!(
            "roots serve: {} in {}\nhost (open tables, watch them): {base}/?host={}\n",
            roots::core::count(picked_up, "table", "tables"),
            args.dir.display(),
            hub.host_key()
        ));
        if let Some((links, picked_up)) = opened {
            let id = links["id"].as_str().unwrap_or("?");
            let mut said = if picked_up {
                format!(
                    "table {id} of {first}, picked up: its game goes on ({} played; to start afresh, close it at the host of the table's link):\n",
                    roots::core::count(links["table"]["events"].as_u64().unwrap_or(0), "event", "events")
                )
            } else {
                format!("table {id} of {first}:\n")
            };
            for s in links["seats"].as_array().into_iter().flatten() {
                let name = s["name"].as_str().unwrap_or("?");
                match s["link"].as_str() {
                    Some(l) => said.push_str(&format!("  seat {} ({name}): {base}{l}\n", s["seat"])),
                    None => said.push_str(&format!("  seat {} ({name}): a bot\n", s["seat"])),
                }
            }
            said.push_str(&format!("  host of the table: {base}{}\n", links["host"].as_str().unwrap_or("")));
            super::out(&said);
        }
        use std::io::Write;
        let _ = std::io::stdout().flush();
        roots::serve::serve(hub, listener)
            .await
            .map_err(|e| Failure::io(format!("error: the server stopped: {e}")))
    })
}
