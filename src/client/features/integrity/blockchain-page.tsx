import Verified from '@mui/icons-material/Verified';
import { Box, Button, Chip, Paper, Stack, Typography } from '@mui/material';
import { Link } from '@tanstack/react-router';
import { useIntl } from 'react-intl';

/** Public teaser for the on-chain integrity feature (docs/product.md §2 Blockchain page). */
export function BlockchainPage() {
  const intl = useIntl();
  return (
    <Paper
      component="section"
      aria-labelledby="blockchain-title"
      elevation={0}
      sx={{
        maxWidth: 960,
        mx: 'auto',
        mt: { xs: 1, md: 4 },
        p: { xs: 3, md: 6 },
        borderRadius: 3,
        color: 'common.white',
        background: 'linear-gradient(135deg, #311b92 0%, #4527a0 45%, #00897b 100%)',
      }}
    >
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={4} sx={{ alignItems: 'center' }}>
        <Box
          component="img"
          src="/blockchain.svg"
          alt={intl.formatMessage({ id: 'blockchain.logo_alt' })}
          sx={{ width: { xs: 180, md: 240 }, bgcolor: 'rgba(255,255,255,0.92)', borderRadius: 3, p: 2 }}
        />
        <Stack
          spacing={2}
          sx={{ alignItems: { xs: 'center', md: 'flex-start' }, textAlign: { xs: 'center', md: 'left' } }}
        >
          <Typography
            variant="overline"
            sx={{ opacity: 0.85, display: 'flex', alignItems: 'center', gap: 1 }}
          >
            <Verified fontSize="small" /> uvtrace
          </Typography>
          <Typography id="blockchain-title" variant="h3" component="h1" sx={{ fontWeight: 700 }}>
            {intl.formatMessage({ id: 'blockchain.title' })}
          </Typography>
          <Typography variant="h6" component="p" sx={{ fontWeight: 400, opacity: 0.95 }}>
            {intl.formatMessage({ id: 'blockchain.claim' })}
          </Typography>
          <Typography variant="body1" sx={{ opacity: 0.85 }}>
            {intl.formatMessage({ id: 'blockchain.description' })}
          </Typography>
          <Chip
            label={intl.formatMessage({ id: 'blockchain.coming_soon' })}
            sx={{ bgcolor: 'common.white', color: 'primary.dark', fontWeight: 700 }}
          />
          <Button
            component={Link}
            to="/verify"
            variant="outlined"
            sx={{ color: 'common.white', borderColor: 'rgba(255,255,255,0.7)' }}
          >
            {intl.formatMessage({ id: 'blockchain.verify_link' })}
          </Button>
        </Stack>
      </Stack>
    </Paper>
  );
}
