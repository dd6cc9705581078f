//! Who is asking: the client's IP address, for the per-IP limits, the socket caps, the audit and
//! the card provider. Behind a reverse proxy every connection comes from the proxy, so the
//! client is read from `X-Forwarded-For`, but only when the connection comes from a proxy this
//! server trusts (`trusted_proxies`); anyone else could write that header themselves.

use std::net::IpAddr;

use ipnet::IpNet;
use warp::filters::BoxedFilter;
use warp::http::HeaderMap;
use warp::Filter;

use crate::App;

/// The client's address for this request (see [`client_ip`]); `None` only without a socket
/// (tests driving the filters directly).
pub fn address(app: &App) -> BoxedFilter<(Option<IpAddr>,)> {
    let app = app.clone();
    // `server::serve` puts the peer in the request; warp's own (tests' requests) otherwise.
    warp::ext::optional::<crate::serve::Peer>()
        .and(warp::addr::remote())
        .map(
            |served: Option<crate::serve::Peer>, warp_peer: Option<std::net::SocketAddr>| {
                served.map(|p| p.0).or(warp_peer)
            },
        )
        .and(warp::header::headers_cloned())
        .map(
            move |peer: Option<std::net::SocketAddr>, headers: HeaderMap| {
                let trusted = &app.config.trusted_proxies;
                if trusted.is_empty() {
                    return peer.map(|p| p.ip());
                }
                // A header may come several times (a proxy that appends one of its own): in order,
                // they are one list.
                let forwarded: Vec<&str> = headers
                    .get_all("x-forwarded-for")
                    .iter()
                    .filter_map(|v| v.to_str().ok())
                    .collect();
                client_ip(peer.map(|p| p.ip()), &forwarded.join(","), trusted)
            },
        )
        .boxed()
}

/// The client of a request whose connection came from `peer`: `peer` itself unless it is a
/// trusted proxy; then, walking `forwarded_for` (X-Forwarded-For, nearest hop last) from the
/// right, the first address that is not a trusted proxy. Entries left of that one were written
/// by the client and are ignored; an entry that is not an address ends the walk at the last
/// address known good.
pub fn client_ip(peer: Option<IpAddr>, forwarded_for: &str, trusted: &[IpNet]) -> Option<IpAddr> {
    let is_trusted = |ip: &IpAddr| trusted.iter().any(|net| net.contains(ip));
    let mut client = peer?;
    if !is_trusted(&client) {
        return Some(client);
    }
    for entry in forwarded_for.rsplit(',').map(str::trim) {
        if entry.is_empty() {
            continue;
        }
        let Ok(hop) = entry.parse::<IpAddr>() else {
            break;
        };
        client = hop;
        if !is_trusted(&hop) {
            break;
        }
    }
    Some(client)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> Option<IpAddr> {
        Some(s.parse().unwrap())
    }

    fn nets(list: &[&str]) -> Vec<IpNet> {
        list.iter().map(|n| n.parse().unwrap()).collect()
    }

    #[test]
    fn an_untrusted_peer_is_the_client_whatever_it_writes() {
        let trusted = nets(&["10.0.0.0/8"]);
        assert_eq!(
            client_ip(ip("203.0.113.7"), "198.51.100.1", &trusted),
            ip("203.0.113.7")
        );
        assert_eq!(
            client_ip(ip("203.0.113.7"), "198.51.100.1", &[]),
            ip("203.0.113.7")
        );
    }

    #[test]
    fn behind_trusted_proxies_the_nearest_untrusted_hop_is_the_client() {
        let trusted = nets(&["127.0.0.1/32", "10.0.0.0/8"]);
        // nginx appended the client's address to what the client claimed.
        assert_eq!(
            client_ip(ip("127.0.0.1"), "6.6.6.6, 203.0.113.7", &trusted),
            ip("203.0.113.7")
        );
        // Two proxies: the load balancer (10.0.0.5) reached nginx, which reached us.
        assert_eq!(
            client_ip(ip("127.0.0.1"), "6.6.6.6,203.0.113.7, 10.0.0.5", &trusted),
            ip("203.0.113.7")
        );
        assert_eq!(
            client_ip(ip("127.0.0.1"), "2001:db8::1", &trusted),
            ip("2001:db8::1")
        );
    }

    #[test]
    fn without_a_usable_header_the_last_known_hop_stands() {
        let trusted = nets(&["127.0.0.1/32", "10.0.0.0/8"]);
        assert_eq!(client_ip(ip("127.0.0.1"), "", &trusted), ip("127.0.0.1"));
        // Garbage ends the walk: the proxy nearest to it is what is known.
        assert_eq!(
            client_ip(ip("127.0.0.1"), "203.0.113.7, junk, 10.0.0.5", &trusted),
            ip("10.0.0.5")
        );
        // Only proxies in the chain: the farthest of them.
        assert_eq!(
            client_ip(ip("127.0.0.1"), "10.0.0.9, 10.0.0.5", &trusted),
            ip("10.0.0.9")
        );
        assert_eq!(client_ip(None, "203.0.113.7", &trusted), None);
    }
}
