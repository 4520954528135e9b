<?php
// The smallest PHP front for Symfony's RateLimiter component (Debian's
// php-symfony-rate-limiter) under `php -S`: /limited consumes one token of
// the limiter keyed by X-User-ID or else the client address, policy
// POLICY (fixed_window, sliding_window, token_bucket), state in Symfony
// Cache's FilesystemAdapter (php -S runs each request afresh). The
// component writes no HTTP: a refusal is the status 429 only.
require '/usr/share/php/Symfony/Component/RateLimiter/autoload.php';
require '/usr/share/php/Symfony/Component/Cache/autoload.php';

use Symfony\Component\Cache\Adapter\FilesystemAdapter;
use Symfony\Component\RateLimiter\RateLimiterFactory;
use Symfony\Component\RateLimiter\Storage\CacheStorage;

$path = parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH);
if ($path === '/healthz') {
    echo "ok\n";
    return;
}
if ($path !== '/limited') {
    http_response_code(404);
    return;
}
$policy = getenv('POLICY');
$config = ['id' => 'interop', 'policy' => $policy];
if ($policy === 'token_bucket') {
    $config['limit'] = (int) getenv('RL_BURST');
    // one token every 1/RL_RATE seconds: DateInterval counts whole seconds
    $config['rate'] = ['interval' => ((int) round(1 / (float) getenv('RL_RATE'))).' seconds', 'amount' => 1];
} else {
    $config['limit'] = (int) getenv('RL_LIMIT');
    $config['interval'] = ((int) rtrim(getenv('RL_WINDOW'), 's')).' seconds';
}
$factory = new RateLimiterFactory($config, new CacheStorage(new FilesystemAdapter('rl', 0, getenv('WORK_DIR').'/cache')));
$key = $_SERVER['HTTP_X_USER_ID'] ?? $_SERVER['REMOTE_ADDR'];
if (!$factory->create($key)->consume(1)->isAccepted()) {
    http_response_code(429);
    echo "Too Many Requests\n";
    return;
}
echo "ok\n";
