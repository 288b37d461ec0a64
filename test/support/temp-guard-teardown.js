module.exports = require('./temp-guard').teardown;
