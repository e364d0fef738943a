import './lib/zod-config.ts'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { BrowserRouter } from 'react-router'
import { AppRoutes } from './app/app-routes.tsx'
import { AppProviders } from './app/providers.tsx'
import './styles.css'

// index.html carries a default title and description for the first paint and for crawlers without
// JavaScript; each page renders its own with React 19 head tags, so the defaults step aside.
for (const element of document.head.querySelectorAll('[data-default-head]')) element.remove()

const root = document.getElementById('root')
if (!root) throw new Error('index.html has no #root element')

createRoot(root).render(
  <StrictMode>
    <BrowserRouter>
      <AppProviders>
        <AppRoutes />
      </AppProviders>
    </BrowserRouter>
  </StrictMode>,
)
