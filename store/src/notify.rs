//! PostgreSQL's LISTEN/NOTIFY, which carries live pushes between instances (`live`): no table,
//! a channel.

/// Starts hearing `channel` on `client`'s connection.
pub async fn listen(
    client: &tokio_postgres::Client,
    channel: &str,
) -> Result<(), tokio_postgres::Error> {
    client.batch_execute(&format!("LISTEN {channel}")).await
}

/// Tells every connection listening on `channel` the `payload`.
pub async fn notify(
    client: &tokio_postgres::Client,
    channel: &str,
    payload: &str,
) -> Result<(), tokio_postgres::Error> {
    client
        .execute("SELECT pg_notify($1, $2)", &[&channel, &payload])
        .await
        .map(|_| ())
}
